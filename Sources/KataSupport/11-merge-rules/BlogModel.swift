@_spi(ModelBuilding) import Persistence

/// Lesson 11's model, written in code: posts and the users who write them. A post has a mandatory title, a body
/// and a like count; its author is optional, and deleting a user leaves their posts without one. Built once and
/// shared (``shared()``), as lesson 2 explains.
public enum BlogModel {
    /// The model's name, as a container knows it.
    public static let name = "Blog"

    /// A new model instance. Prefer ``shared()``.
    public static func make() throws -> ManagedObjectModel {
        // region: model
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Post", managedObjectClass: Post.self, properties: [
                .attribute("title", .string, optional: false),
                .attribute("body", .string, optional: false, defaultValue: ""),
                .attribute("likes", .integer64, optional: false, defaultValue: 0),
                .toOne("author", "User", inverse: "posts", deleteRule: .nullify),
            ]),
            EntityDescription(name: "User", managedObjectClass: User.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("posts", "Post", inverse: "author", deleteRule: .nullify),
            ]),
        ])
        // endregion: model
    }

    /// The process's one instance of the model.
    public static func shared() throws -> ManagedObjectModel {
        try instance.get()
    }

    private static let instance = Result { try make() }
}
