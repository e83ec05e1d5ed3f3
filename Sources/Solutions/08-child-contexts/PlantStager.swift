import KataSupport
import Persistence

/// Adds plants in the background for the user to review: document 004's set-up, a private-queue context whose
/// parent is the view context. The plants arrive in the view context as its own unsaved inserts — the list shows
/// them at once, with no merging — and reach the store only when the view context saves (the user's OK).
public final class PlantStager {
    /// The stager's private-queue child of the view context.
    public let context: ManagedObjectContext

    public init(parent: ManagedObjectContext) {
        context = ManagedObjectContext(.privateQueue)
        context.parent = parent
    }

    /// Inserts a plant for each name in the child, on the child's queue, and saves the child into the parent.
    /// Returns the new plants' IDs, under which the parent holds them until it saves.
    public func stage(_ names: [String]) throws -> [ManagedObjectID] {
        let context = self.context
        return try context.performAndWait {
            let plants = names.map { name in
                let plant = Plant(context: context)
                plant.name = name
                return plant
            }
            try context.save()                 // into the view context; the store sees nothing yet
            return plants.map(\.objectID)
        }
    }
}
