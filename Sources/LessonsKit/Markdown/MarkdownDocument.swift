/// A parsed Markdown file: plain Swift values, no C left in it.
public struct MarkdownDocument: Equatable, Sendable {
    /// The top-level blocks in source order.
    public var blocks: [MarkdownBlock]

    public init(blocks: [MarkdownBlock]) {
        self.blocks = blocks
    }
}
