@_spi(ModelBuilding) import Persistence

/// The example's model, `Kitchen`: tables and the tickets ordered for them.
enum KitchenModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "DiningTable", managedObjectClass: DiningTable.self, properties: [
                .attribute("number", .integer32, defaultValue: 0),
                .attribute("server", .string, defaultValue: ""),
                .toMany("tickets", "Ticket", inverse: "table", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Ticket", managedObjectClass: Ticket.self, properties: [
                .attribute("dish", .string, optional: false),
                .attribute("station", .string, defaultValue: "grill"),
                .attribute("due", .integer32, defaultValue: 0),
                .attribute("status", .string, defaultValue: "waiting"),
                .toOne("table", "DiningTable", inverse: "tickets", deleteRule: .nullify),
            ]),
        ])
    }
}
