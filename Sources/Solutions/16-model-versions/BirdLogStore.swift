import Foundation
import KataSupport
import Persistence

/// Opens the bird log's store, whatever version of the app wrote it.
///
/// Lesson 16, katas 4 and 6. Check with `swift run lessons check 16`.
public enum BirdLogStore {
    /// Kata 4: a loaded container on the store file at `url`, with the current version of the model (version 3).
    /// A store of an earlier version is migrated in place as it loads, through ``BirdLogMigration/stages()``.
    /// Kata 6: a store that cannot be loaded is reported (thrown) and left as it is.
    public static func load(at url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: BirdLogVersion1.name,
                                            managedObjectModel: try BirdLogVersions.version3())
        let store = PersistentStoreDescription(url: url)
        // Both are true by default; Apple's own staged set-up says so again, and so does this.
        store.shouldMigrateStoreAutomatically = true
        store.shouldInferMappingModelAutomatically = true
        store.setOption(StagedMigrationManager(try BirdLogMigration.stages()),
                        forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [store]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        // The user's data is in that file: report the error, never delete the store to get past it.
        if let failure { throw failure }
        return container
    }
}
