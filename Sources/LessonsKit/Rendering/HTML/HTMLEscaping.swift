/// Escaping for HTML text and attribute values. Every piece of text a handout shows goes through here.
public enum HTMLEscaping {
    // region: escape
    /// Escapes the five characters that could end text or an attribute value early.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
    // endregion: escape
}
