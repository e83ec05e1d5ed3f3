/// One block of a Markdown document, with the line where it starts in its file (1-based).
///
/// Renderers switch over `kind` exhaustively: a construct that a renderer forgets does not compile,
/// so nothing CommonMark can say is dropped silently.
public struct MarkdownBlock: Equatable, Sendable {
    public var kind: Kind
    /// The 1-based line in the source file where the block starts; used in error messages.
    public var line: Int

    public init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    public indirect enum Kind: Equatable, Sendable {
        case paragraph([MarkdownInline])
        /// Level 1–6, from ATX (`#`) or setext (underlined) headings alike.
        case heading(level: Int, [MarkdownInline])
        case blockQuote([MarkdownBlock])
        case list(MarkdownList)
        case codeBlock(MarkdownCodeBlock)
        /// Raw HTML exactly as written; renderers show it as text, never as markup.
        case htmlBlock(String)
        case thematicBreak
        /// A pipe table (not part of CommonMark; see ``PipeTableScanner``).
        case table(MarkdownTable)
    }
}
