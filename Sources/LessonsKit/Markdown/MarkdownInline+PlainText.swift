extension Array where Element == MarkdownInline {
    /// The text a reader sees, without any markup: used for alt text, anchors and table widths.
    public var plainText: String {
        var result = ""
        for inline in self {
            switch inline {
            case .text(let text), .code(let text), .html(let text): result += text
            case .softBreak: result += " "
            case .lineBreak: result += "\n"
            case .emphasis(let children), .strong(let children), .link(_, _, let children),
                 .image(_, _, let children):
                result += children.plainText
            }
        }
        return result
    }
}
