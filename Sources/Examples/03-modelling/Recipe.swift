import Persistence

// region: classes
/// A recipe, written by hand: a mandatory attribute is a plain `String`, a number that may be missing an
/// `NSNumber?`, a to-one relationship an optional object and an unordered to-many a `Set`.
final class Recipe: ManagedObject {
    @Managed var title: String
    @Managed var servings: Int
    @Managed var minutes: NSNumber?          // optional Integer 16: nil stays nil
    @Managed var cuisine: ManagedObject?     // Cuisine has no class of its own
    @Managed var mealPlans: Set<MealPlan>

    /// The typed request, as Xcode's generated extension declares it: `ManagedObject`'s own is untyped.
    class func fetchRequest() -> FetchRequest<Recipe> {
        FetchRequest<Recipe>(entityName: "Recipe")
    }
}
// endregion: classes
