/// What a link or image destination in a lesson points at; decides how each renderer writes it.
public enum LinkTarget: Equatable, Sendable {
    /// `lesson:5`, `lesson:saving-safely` or `lesson:5#section`: another lesson.
    case lesson(String, anchor: String?)
    /// `#section`: a heading in the same lesson.
    case anchor(String)
    /// `https://…`, `http://…`, `mailto:…`.
    case external(String)
    /// A relative path such as `diagram.svg`; fine for images (copied into the handouts), not for links.
    case relative(String)
    /// Any other scheme (`javascript:`, `file:`…), which handouts never link to.
    case unsupported(String)

    public init(_ destination: String) {
        let lower = destination.lowercased()
        if lower.hasPrefix("lesson:") {
            let rest = destination.dropFirst("lesson:".count)
            if let hash = rest.firstIndex(of: "#") {
                self = .lesson(String(rest[..<hash]), anchor: String(rest[rest.index(after: hash)...]))
            } else {
                self = .lesson(String(rest), anchor: nil)
            }
        } else if destination.hasPrefix("#") {
            self = .anchor(String(destination.dropFirst()))
        } else if lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:") {
            self = .external(destination)
        } else if let colon = destination.firstIndex(of: ":"),
                  !destination[..<colon].contains("/"), !destination[..<colon].contains(".") {
            self = .unsupported(destination)
        } else {
            self = .relative(destination)
        }
    }
}
