/// Gives headings stable, unique `id`s for tables of contents and `#anchor` links.
///
/// An id is the heading's text in lower case with runs of other characters turned into `-` (letters of any
/// script are kept, so Russian headings get Russian ids); repeats get `-2`, `-3`….
public struct HeadingAnchors: Sendable {
    private var used: [String: Int] = [:]
    private let prefix: String

    /// `prefix` keeps ids unique when several lessons share a page (`l05-` on the print page).
    public init(prefix: String = "") {
        self.prefix = prefix
    }

    public static func slug(_ text: String) -> String {
        var slug = ""
        var pendingDash = false
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingDash && !slug.isEmpty { slug += "-" }
                slug.append(character)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "section" : slug
    }

    public mutating func id(for text: String) -> String {
        let base = prefix + Self.slug(text)
        let count = (used[base] ?? 0) + 1
        used[base] = count
        return count == 1 ? base : "\(base)-\(count)"
    }
}
