import Foundation
import KataSupport
import Persistence

/// How a store of any earlier version reaches the current one: the stages of a staged migration (Core Data's
/// `NSStagedMigrationManager`, iOS 17), in order.
///
/// Lesson 16, kata 3. Check with `swift run lessons check 16`.
public enum BirdLogMigration {
    /// Kata 3: from version 1 to 2, then from 2 to 3, so that a store of either version reaches version 3. The step
    /// to version 3 fills every sighting's `speciesKey` from its `species` (``Sighting/speciesKey(for:)``), which
    /// no inferred mapping can compute.
    public static func stages() throws -> [MigrationStage] {
        let v1 = try BirdLogVersion1.model()
        let v2 = try BirdLogVersions.version2()
        let v3 = try BirdLogVersions.version3()
        // The versions are models made in code: a custom stage holds them itself. Without handlers it is one
        // lightweight step.
        let toVersion2 = CustomMigrationStage(migratingFrom: reference(to: v1), to: reference(to: v2))
        toVersion2.label = "version 1 to 2: remarks, place"
        let toVersion3 = CustomMigrationStage(migratingFrom: reference(to: v2), to: reference(to: v3))
        toVersion3.label = "version 3: species keys"
        toVersion3.didMigrateHandler = { manager, _ in
            // The store is on version 3 now: speciesKey exists, and species is still there to read.
            guard let container = manager.container else { return }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for sighting in try context.fetch(Sighting.fetchRequest()) {
                    sighting.speciesKey = Sighting.speciesKey(for: sighting.species)
                }
                try context.save()
            }
        }
        return [toVersion2, toVersion3]
    }

    private static func reference(to model: ManagedObjectModel) -> ManagedObjectModelReference {
        ManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum)
    }
}
