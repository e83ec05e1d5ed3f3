@_spi(ModelBuilding) import Persistence

/// The example's model, `BirdLog`: survey sites and their sightings, a sighting unique by checklist and species.
enum BirdLogModel {
    static let name = "BirdLog"

    // region: model
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "SurveySite", managedObjectClass: SurveySite.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("sightings", "Observation", inverse: "site", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Observation", managedObjectClass: Observation.self, properties: [
                .attribute("checklist", .string, optional: false),
                .attribute("species", .string, optional: false),
                .attribute("count", .integer32, defaultValue: 1),
                .attribute("status", .string, defaultValue: "pending"),
                .attribute("uploaded", .boolean, defaultValue: false),
                .toOne("site", "SurveySite", inverse: "sightings", deleteRule: .nullify),
            ], uniquenessConstraints: [["checklist", "species"]]),   // one key of two attributes
        ])
    }
    // endregion: model
}
