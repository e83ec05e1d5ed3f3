import Persistence

// region: classes
/// A recipe and its steps, in order. Written by hand: a mandatory attribute is a plain `String`, an optional one a
/// `String?`, an ordered to-many relationship an `NSOrderedSet`, as Core Data hands it over.
final class Recipe: ManagedObject {
    @Managed var title: String
    @Managed var servings: Int
    @Managed var steps: NSOrderedSet
}

final class Step: ManagedObject {
    @Managed var text: String
    @Managed var minutes: Int?
    @Managed var recipe: Recipe?
}
// endregion: classes
