@_spi(ModelBuilding) import Persistence

/// A second model of lesson 2's app, `Orchard`: one entity, `Tree`, with no class of its own (it claims no Swift
/// class, so a copy of it cannot clash with another model). It is in ``ModelBundle/main`` as a model the app added
/// later: code that finds models by the name it is asked for finds it; code written for a fixed list of names does not.
public enum OrchardModel {
    public static let name = "Orchard"

    /// A new model instance each call, like reading the compiled model file again.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Tree", properties: [
                .attribute("variety", .string, optional: false),
                .attribute("plantedOn", .date),
            ]),
        ])
    }
}
