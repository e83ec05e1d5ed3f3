import Foundation
import Persistence

/// A bird sighting, as the current version of the bird log (version 3) describes it. Versions 1 and 2 have no class
/// of their own: a migration reads them as plain ``ManagedObject``s, by key.
public final class Sighting: ManagedObject {
    /// The species seen, as the user typed it: "Grey Heron".
    @Managed public var species: String
    /// How many birds.
    @Managed public var count: Int
    /// Free remarks; version 1 called them `notes`.
    @Managed public var remarks: String?
    /// Where the bird was seen; since version 2 (``unrecordedPlace`` for older sightings).
    @Managed public var place: String
    @Managed public var seenAt: Date
    /// The species folded for searching (``speciesKey(for:)``); since version 3.
    @Managed public var speciesKey: String

    /// The place of every sighting saved before version 2 asked for one.
    public static let unrecordedPlace = "unrecorded"

    /// The key version 3 keeps for `species`: lower case, without accents, so a search compares plain strings
    /// ("Gänsegeier" → "gansegeier") instead of folding every row as it goes (lesson 13).
    public static func speciesKey(for species: String) -> String {
        species.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Sighting> {
        FetchRequest<Sighting>(entityName: "Sighting")
    }
}
