import Persistence

// region: classes
/// A recipe and its steps, in order. Written by hand: a mandatory attribute is a plain `String`, an optional one a
/// `String?`, an ordered to-many relationship an `NSOrderedSet`, as Core Data hands it over.
final class Recipe: ManagedObject {
    @Managed var title: String
    @Managed var servings: Int
    @Managed var steps: NSOrderedSet

    /// The typed request, as Xcode's generated extension declares it: `ManagedObject`'s own is untyped.
    class func fetchRequest() -> FetchRequest<Recipe> {
        FetchRequest<Recipe>(entityName: "Recipe")
    }
}

final class Step: ManagedObject {
    @Managed var text: String
    @Managed var minutes: NSNumber?
    @Managed var recipe: Recipe?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Step> {
        FetchRequest<Step>(entityName: "Step")
    }
}
// endregion: classes
