/// Inline content of a paragraph, heading or table cell.
public indirect enum MarkdownInline: Equatable, Sendable {
    case text(String)
    /// A line break in the source that is not a hard break: a space when rendered.
    case softBreak
    /// A hard line break (two spaces or a backslash at the end of a line).
    case lineBreak
    case code(String)
    /// Raw inline HTML exactly as written; renderers show it as text.
    case html(String)
    case emphasis([MarkdownInline])
    case strong([MarkdownInline])
    case link(destination: String, title: String, [MarkdownInline])
    /// An image; its children are the alternative text.
    case image(source: String, title: String, [MarkdownInline])
}
