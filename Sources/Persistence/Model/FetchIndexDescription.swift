/// An index on an entity's table, as Core Data's `NSFetchIndexDescription`: a name and the properties it
/// orders by, each ascending or descending. One element makes a plain index; several make a compound one.
///
/// ```swift
/// EntityDescription(name: "Movie", properties: [...],
///                   indexes: [FetchIndexDescription(name: "byYearAndTitle", properties: ["year", "title"])])
/// ```
///
/// An index changes how fast fetches run, never what they return. Elements name attributes or to-one
/// relationships (the properties that have a column).
public struct FetchIndexDescription: Sendable, Hashable, CustomStringConvertible {
    /// One property of an index and its order.
    public struct Element: Sendable, Hashable {
        /// The name of the attribute or to-one relationship indexed.
        public let property: String
        /// `false` orders the index from the largest value down.
        public let isAscending: Bool

        /// One property of an index, ascending unless you say otherwise.
        public init(property: String, ascending: Bool = true) {
            self.property = property
            self.isAscending = ascending
        }
    }

    /// The index's name, unique in the model (it names the SQLite index).
    public let name: String
    /// The properties indexed, in order of precedence.
    public let elements: [Element]

    /// An index over `elements`, each with its own order.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }

    /// An index over `properties`, all ascending.
    public init(name: String, properties: [String]) {
        self.init(name: name, elements: properties.map { Element(property: $0) })
    }

    public var description: String {
        "\(name) (" + elements.map { $0.property + ($0.isAscending ? "" : " desc") }.joined(separator: ", ") + ")"
    }
}
