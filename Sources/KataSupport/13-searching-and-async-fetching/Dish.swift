import Persistence

/// A dish in a cookbook app: the one entity of lesson 13's model (see ``CookbookModel``). Its name is what the
/// search field searches, accents, capitals, apostrophes and all.
public final class Dish: ManagedObject {
    @Managed public var name: String

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Dish> {
        FetchRequest<Dish>(entityName: "Dish")
    }
}
