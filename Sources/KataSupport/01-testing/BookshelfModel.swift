@_spi(ModelBuilding) import Persistence

/// Lesson 1's model, written in code: one entity, `Book`, with a mandatory title and an optional author.
///
/// On Apple platforms this would be a `.xcdatamodeld` file compiled into the app; here the model is built by a
/// function. Build it once and share it (``shared()``): every container of the process then uses the same
/// entities, which is what lesson 2 explains.
public enum BookshelfModel {
    /// The model's name, as a container and a model bundle know it.
    public static let name = "Bookshelf"

    /// A new model instance. Prefer ``shared()``; a fresh one is what reading a model file again would give.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Book", managedObjectClass: Book.self, properties: [
                .attribute("title", .string, optional: false),
                .attribute("author", .string),
            ]),
        ])
    }

    /// The process's one instance of the model.
    public static func shared() throws -> ManagedObjectModel {
        try instance.get()
    }

    // A static `let` is initialised once, thread-safely; the `Result` keeps a failure instead of trapping.
    private static let instance = Result { try make() }
}
