/// How a run of terminal text looks; turned into ANSI escape codes only when colours are on.
public struct TextStyle: Equatable, Sendable {
    public enum Color: Int, Sendable {
        case red = 31, green = 32, yellow = 33, blue = 34, magenta = 35, cyan = 36
    }

    public var bold = false
    public var italic = false
    public var underline = false
    public var dim = false
    public var color: Color?

    public init(bold: Bool = false, italic: Bool = false, underline: Bool = false, dim: Bool = false,
                color: Color? = nil) {
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.dim = dim
        self.color = color
    }

    public static let plain = TextStyle()

    /// The SGR sequence that switches to this style from any other (it starts with a reset).
    var escapeSequence: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if italic { codes.append("3") }
        if underline { codes.append("4") }
        if let color { codes.append(String(color.rawValue)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
