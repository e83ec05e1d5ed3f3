@_spi(ModelBuilding) import Persistence

/// Lesson 13's model, `Cookbook`: one entity, `Dish`, with a mandatory name. Built once and shared
/// (``shared()``), as lesson 2 explains.
public enum CookbookModel {
    /// The model's name, as a container knows it.
    public static let name = "Cookbook"

    /// A new model instance. Prefer ``shared()``.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Dish", managedObjectClass: Dish.self, properties: [
                .attribute("name", .string, optional: false),
            ]),
        ])
    }

    /// The process's one instance of the model.
    public static func shared() throws -> ManagedObjectModel {
        try model.get()
    }

    private static let model = Result { try make() }

    // region: menu
    /// The dishes the example and the katas search: accents, mixed case, words in either order, and names with
    /// `%`, `_`, an apostrophe and double quotes in them.
    public static let menu = [
        "Crème Brûlée", "CRÈME CARAMEL", "Crêpes Suzette", "1000-Layer Crêpe Cake",
        "Chocolate Tart", "Tarte au Chocolat", "Lemon Tart", "Chocolate Mousse",
        "Jalapeño Cornbread", "100% Rye Bread", "Mom's Apple Pie", "Nonna's \"Sunday\" Ragù",
        "Phở Broth (v2_final)", "Chicken Stock (v2 final)",
    ]
    // endregion: menu
}
