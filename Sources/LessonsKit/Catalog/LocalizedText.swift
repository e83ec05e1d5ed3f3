/// A text in one or more languages. In the manifest it is either a plain string (English) or an object
/// keyed by language code: `{"ru": "Правила слияния", "en": "Merge rules"}`.
public struct LocalizedText: Equatable, Sendable, Decodable {
    public var texts: [Language: String]

    public init(_ texts: [Language: String]) {
        self.texts = texts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let plain = try? container.decode(String.self) {
            texts = [.en: plain]
            return
        }
        let keyed = try container.decode([String: String].self)
        var texts: [Language: String] = [:]
        for (code, text) in keyed {
            guard let language = Language(rawValue: code) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "unknown language \"\(code)\"; valid: \(Language.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            texts[language] = text
        }
        guard !texts.isEmpty else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a text needs at least one language")
        }
        self.texts = texts
    }

    /// The text in `language`, else English, else whichever exists.
    public func text(in language: Language) -> String {
        texts[language] ?? texts[.en] ?? texts.sorted { $0.key < $1.key }.first!.value
    }
}
