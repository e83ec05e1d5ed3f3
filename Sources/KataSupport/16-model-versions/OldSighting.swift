import Foundation

/// A sighting as version 1 of the bird log stored it (see ``BirdLogVersion1``): what a migration test writes into
/// an old store before opening it with the current version.
public struct OldSighting: Sendable, Equatable {
    public var species: String
    public var count: Int
    public var notes: String?
    public var seenAt: Date

    public init(species: String, count: Int, notes: String?, seenAt: Date) {
        self.species = species
        self.count = count
        self.notes = notes
        self.seenAt = seenAt
    }
}
