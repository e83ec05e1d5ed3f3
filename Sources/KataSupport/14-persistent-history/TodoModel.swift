@_spi(ModelBuilding) import Persistence

/// Lesson 14's model, `Todo`: one entity, `TodoItem`.
public enum TodoModel {
    public static let name = "Todo"

    // region: model
    /// A new model instance each call.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "TodoItem", managedObjectClass: TodoItem.self, properties: [
                .attribute("title", .string, optional: false),
                .attribute("done", .boolean, defaultValue: false),
            ]),
        ])
    }
    // endregion: model

    /// One model for every container of the app, read once (lesson 2: one model, however many containers).
    public static func shared() throws -> ManagedObjectModel {
        try model.get()
    }

    private static let model = Result { try make() }
}
