/// A fenced or indented code block; after loading, it may carry the file region it was included from.
public struct MarkdownCodeBlock: Equatable, Sendable {
    /// The whole info string after the opening fence (empty for indented code).
    public var info: String
    public var code: String
    /// Where the code came from when it was included from a compiled file (`path#region`).
    public var origin: String?

    public init(info: String, code: String, origin: String? = nil) {
        self.info = info
        self.code = code
        self.origin = origin
    }

    /// The first word of the info string, lowercased (`swift`, `sh`…), or nil.
    public var language: String? {
        let word = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        return word.map { $0.lowercased() }
    }
}
