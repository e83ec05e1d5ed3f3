/// One key of a fetch's sort order (Core Data's `NSSortDescriptor`; the name `SortDescriptor` is Foundation's).
///
/// Strings sort by their UTF-8 bytes, as SQLite does, or ignoring ASCII case with `caseInsensitive`; nil sorts
/// before every value.
public struct FetchSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// An attribute name, or a key path through to-one relationships (`director.name`).
    public let key: String
    /// `false` sorts from the largest value down.
    public let ascending: Bool
    /// `true` compares strings ignoring ASCII case (Core Data's `caseInsensitiveCompare:` selector).
    public let caseInsensitive: Bool

    /// A sort by `key`, ascending unless you say otherwise.
    public init(key: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.key = key
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }

    /// A descriptor from a Swift key path of a managed object class: `FetchSortDescriptor(\Movie.title)`,
    /// `FetchSortDescriptor(\Movie.director?.name)`.
    public init<Root: ManagedObject, Value>(_ keyPath: KeyPath<Root, Value>, ascending: Bool = true, caseInsensitive: Bool = false) {
        let key = KeyPathRecorder.keys(of: keyPath)?.joined(separator: ".") ?? String(describing: keyPath)
        self.init(key: key, ascending: ascending, caseInsensitive: caseInsensitive)
    }

    var keyPath: [String] { key.split(separator: ".").map(String.init) }

    public var description: String { "\(key) \(ascending ? "ASC" : "DESC")\(caseInsensitive ? " (case-insensitive)" : "")" }
}
