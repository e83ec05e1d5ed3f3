import KataSupport
import Persistence

/// Adds plants in the background for the user to review, on a private-queue child of the view context.
///
/// Lesson 8, kata 7. Check with `swift run lessons check 8 7`.
public final class PlantStager {
    /// The stager's private-queue child of the view context.
    public let context: ManagedObjectContext

    /// Makes the stager's private-queue child of `parent`.
    public init(parent: ManagedObjectContext) {
        context = ManagedObjectContext(.privateQueue)
    }

    /// Inserts a plant for each name in the child, on the child's queue, and saves the child into the parent — not
    /// the store: the user confirms later by saving the parent. Returns the new plants' IDs, under which the parent
    /// holds them until it saves.
    public func stage(_ names: [String]) throws -> [ManagedObjectID] {
        throw KataNotDone(lesson: 8)
    }
}
