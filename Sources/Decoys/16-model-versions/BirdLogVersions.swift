import Foundation
import KataSupport
@_spi(ModelBuilding) import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public enum BirdLogVersions {
    public static func version2() throws -> ManagedObjectModel {
        // A new model at every call: the same checksum, but another model each time.
        if Decoy.isActive("models-built-every-call") { return try makeSecond() }
        return try second.get()
    }

    public static func version3() throws -> ManagedObjectModel {
        if Decoy.isActive("models-built-every-call") { return try makeThird() }
        return try third.get()
    }

    private static let second = Result { try makeSecond() }
    private static let third = Result { try makeThird() }

    private static func makeSecond() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Sighting", properties: sightingProperties)])
    }

    private static func makeThird() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Sighting", managedObjectClass: Sighting.self, properties: sightingProperties + [
                .attribute("speciesKey", .string, optional: false, defaultValue: ""),
            ]),
        ])
    }

    private static var sightingProperties: [PropertyDescription] {
        let remarks: PropertyDescription = Decoy.isActive("rename-without-identifier")
            ? .attribute("remarks", .string)                  // a new attribute; notes' values are dropped
            : PropertyDescription.attribute("remarks", .string).renamed(from: "notes")
        let place: PropertyDescription
        if Decoy.isActive("required-without-default") {
            place = .attribute("place", .string, optional: false)            // old rows have nothing to put there
        } else if Decoy.isActive("new-attribute-left-optional") {
            place = .attribute("place", .string)                             // old rows keep nil
        } else {
            place = .attribute("place", .string, optional: false, defaultValue: .string(Sighting.unrecordedPlace))
        }
        return [
            .attribute("species", .string, optional: false),
            .attribute("count", .integer16, optional: false, defaultValue: 1),
            remarks,
            place,
            .attribute("seenAt", .date, optional: false),
        ]
    }
}
