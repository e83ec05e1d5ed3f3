/// A language a lesson is written in. The command's own messages are English; lesson texts, titles and hints
/// follow the chosen language where a lesson has it.
public enum Language: String, Codable, CaseIterable, Sendable, Comparable {
    case en
    case ru

    /// The language's own name, for language switches.
    public var nativeName: String {
        switch self {
        case .en: return "English"
        case .ru: return "Русский"
        }
    }

    public static func < (lhs: Language, rhs: Language) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The language to use when none is asked for: `LESSONS_LANG`, else a Russian `LANG`/`LC_ALL`, else English.
    public static func preferred(environment: [String: String]) -> Language {
        if let explicit = environment["LESSONS_LANG"].flatMap(Language.init(rawValue:)) { return explicit }
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty {
                return value.lowercased().hasPrefix("ru") ? .ru : .en
            }
        }
        return .en
    }
}
