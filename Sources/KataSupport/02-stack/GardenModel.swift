@_spi(ModelBuilding) import Persistence

/// Lesson 2's model, `Garden`: one entity, `Plant`. Apps find it by name through ``ModelBundle``, the way a
/// Core Data app finds `Garden.momd` in its bundle.
public enum GardenModel {
    public static let name = "Garden"

    /// A new model instance each call, like reading the compiled model file again.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Plant", managedObjectClass: Plant.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("wateredOn", .date),
            ]),
        ])
    }
}
