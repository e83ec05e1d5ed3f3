import Foundation
import KataSupport
@_spi(ModelBuilding) import Persistence

/// The versions of the bird log's model that came after the first release (``BirdLogVersion1``). Each is a model of
/// its own, and each stays as it shipped: a change is a new version.
///
/// Lesson 16, katas 1–3. Check with `swift run lessons check 16`.
public enum BirdLogVersions {
    /// Katas 1–2: version 2. `notes` is now called `remarks`, and the values sightings saved under `notes` must
    /// survive the rename; every sighting has a `place` (a mandatory string), which those saved before version 2
    /// never had: they get ``Sighting/unrecordedPlace``. `species`, `count` and `seenAt` are as in version 1.
    /// The same instance every call; plain objects (the class ``Sighting`` is version 3's).
    public static func version2() throws -> ManagedObjectModel {
        try second.get()
    }

    /// Kata 3: version 3, the current one: version 2 and `speciesKey`, a mandatory string (empty by default) that a
    /// custom migration stage fills from `species` (``Sighting/speciesKey(for:)``). Its objects are ``Sighting``s.
    /// The same instance every call.
    public static func version3() throws -> ManagedObjectModel {
        try third.get()
    }

    private static let second = Result {
        try ManagedObjectModel(entities: [EntityDescription(name: "Sighting", properties: sightingProperties)])
    }

    private static let third = Result {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Sighting", managedObjectClass: Sighting.self, properties: sightingProperties + [
                .attribute("speciesKey", .string, optional: false, defaultValue: ""),
            ]),
        ])
    }

    /// What versions 2 and 3 both have.
    private static var sightingProperties: [PropertyDescription] {
        [
            .attribute("species", .string, optional: false),
            .attribute("count", .integer16, optional: false, defaultValue: 1),
            // The values stored under version 1's name come along.
            PropertyDescription.attribute("remarks", .string).renamed(from: "notes"),
            // Sightings that have no place yet get this one as they are migrated.
            .attribute("place", .string, optional: false, defaultValue: .string(Sighting.unrecordedPlace)),
            .attribute("seenAt", .date, optional: false),
        ]
    }
}
