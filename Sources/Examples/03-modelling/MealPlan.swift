import Persistence

// region: classes
/// A week's dinners, in the order they will be cooked: an ordered to-many relationship is an `NSOrderedSet`, as
/// Core Data hands it over.
final class MealPlan: ManagedObject {
    @Managed var week: String
    @Managed var recipes: NSOrderedSet

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<MealPlan> {
        FetchRequest<MealPlan>(entityName: "MealPlan")
    }
}
// endregion: classes
