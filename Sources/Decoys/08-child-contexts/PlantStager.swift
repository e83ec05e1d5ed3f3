import KataSupport
import Persistence

/// Lesson 8's ``PlantStager`` with known mistakes (see `Decoy`).
public final class PlantStager {
    public let context: ManagedObjectContext

    public init(parent: ManagedObjectContext) {
        context = ManagedObjectContext(.privateQueue)
        // Mistake: a background context on the store, as newBackgroundContext() makes, instead of a child.
        if Decoy.isActive("importer-on-store") {
            context.persistentStoreCoordinator = parent.persistentStoreCoordinator
        } else {
            context.parent = parent
        }
    }

    public func stage(_ names: [String]) throws -> [ManagedObjectID] {
        let context = self.context
        // Mistake: the private-queue child is used on the caller's thread, outside performAndWait.
        if Decoy.isActive("stage-off-queue") {
            let plants = names.map { name in
                let plant = Plant(context: context)
                plant.name = name
                return plant
            }
            try context.save()
            return plants.map(\.objectID)
        }
        return try context.performAndWait {
            // Mistake: the plants are inserted in the parent — the view context, from the child's queue — so they
            // reach the view context, and later the store, without the child's save.
            let home = Decoy.isActive("stage-inserts-in-parent") ? (context.parent ?? context) : context
            let plants = names.map { name in
                let plant = Plant(context: home)
                plant.name = name
                return plant
            }
            // Mistake: the child is never saved, so the view context never sees the plants.
            if !Decoy.isActive("stage-without-save") { try context.save() }
            // Mistake: the parent is saved too, so the plants reach the store before the user confirms them.
            if Decoy.isActive("stage-saves-parent"), let parent = context.parent {
                try parent.performAndWait { try parent.save() }
            }
            // Mistake: the common nested-save idiom — the child saved, then the parent saved "on its own queue"
            // a moment later — which writes the plants to the store as soon as the main queue runs.
            if Decoy.isActive("stage-saves-parent-later"), let parent = context.parent {
                parent.perform { try? parent.save() }
            }
            return plants.map(\.objectID)
        }
    }
}
