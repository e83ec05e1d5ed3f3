/// A bullet or ordered list.
public struct MarkdownList: Equatable, Sendable {
    public enum Style: Equatable, Sendable {
        case bullet
        /// An ordered list starting at `start`, with `.` or `)` after each number.
        case ordered(start: Int, delimiter: Character)
    }

    public var style: Style
    /// A tight list has no blank lines between its items; a loose one renders paragraphs apart.
    public var isTight: Bool
    /// Each item is a list of blocks.
    public var items: [[MarkdownBlock]]

    public init(style: Style, isTight: Bool, items: [[MarkdownBlock]]) {
        self.style = style
        self.isTight = isTight
        self.items = items
    }
}
