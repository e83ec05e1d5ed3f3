/// One key of a fetch's sort order (Core Data's `NSSortDescriptor`; the name `SortDescriptor` is Foundation's).
///
/// Made as Core Data's: `FetchSortDescriptor(key: "title", ascending: true)` or
/// `FetchSortDescriptor(keyPath: \Movie.title, ascending: true)`. Strings sort by their UTF-8 bytes, as SQLite does,
/// or ignoring ASCII case with `caseInsensitive` (a stand-in, see ``init(key:ascending:caseInsensitive:)``); nil
/// sorts before every value.
public struct FetchSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// An attribute name, or a key path through to-one relationships (`director.name`).
    public let key: String
    /// `false` sorts from the largest value down.
    public let ascending: Bool
    /// `true` compares strings ignoring ASCII case (Core Data's `caseInsensitiveCompare:` selector).
    public let caseInsensitive: Bool

    /// A sort by `key`, up or down, as Core Data's `init(key:ascending:)`.
    public init(key: String, ascending: Bool) {
        self.init(key: key, ascending: ascending, caseInsensitive: false)
    }

    /// A descriptor from a Swift key path of a managed object class, as Core Data's `init(keyPath:ascending:)`:
    /// `FetchSortDescriptor(keyPath: \Movie.title, ascending: true)`, `(keyPath: \Movie.director?.name, …)`.
    public init<Root: ManagedObject, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(keyPath: keyPath, ascending: ascending, caseInsensitive: false)
    }

    /// A sort by `key` that can compare strings ignoring ASCII case: Persistence's stand-in for Core Data's
    /// `init(key:ascending:selector:)` with `caseInsensitiveCompare(_:)`, which needs Objective-C selectors Linux
    /// does not have; hence in the `SortCaseFolding` SPI group (`@_spi(SortCaseFolding) import Persistence`).
    @_spi(SortCaseFolding)
    public init(key: String, ascending: Bool, caseInsensitive: Bool) {
        self.key = key
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }

    /// ``init(key:ascending:caseInsensitive:)`` from a Swift key path.
    @_spi(SortCaseFolding)
    public init<Root: ManagedObject, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool, caseInsensitive: Bool) {
        let key = KeyPathRecorder.keys(of: keyPath)?.joined(separator: ".") ?? String(describing: keyPath)
        self.init(key: key, ascending: ascending, caseInsensitive: caseInsensitive)
    }

    var keyPath: [String] { key.split(separator: ".").map(String.init) }

    public var description: String { "\(key) \(ascending ? "ASC" : "DESC")\(caseInsensitive ? " (case-insensitive)" : "")" }
}
