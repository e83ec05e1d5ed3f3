import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public enum BirdLogStore {
    public static func load(at url: URL) throws -> PersistentContainer {
        if Decoy.isActive("copy-objects-into-new-store") { return try rebuild(at: url) }
        let container = try makeContainer(at: url)
        do {
            try loadStores(of: container)
        } catch where Decoy.isActive("load-clears-wal-on-error") {
            // "A stuck -wal file": the side files removed to clear the error, the store file left. What SQLite had
            // not yet copied into the store file goes with them.
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            throw error
        } catch where Decoy.isActive("delete-store-on-load-error") {
            // "Cannot open the store? Start again": the user's sightings go with the file.
            try container.persistentStoreCoordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType)
            let fresh = try makeContainer(at: url)
            try loadStores(of: fresh)
            return fresh
        }
        if Decoy.isActive("species-keys-every-launch") {
            // The stages are right; this "makes sure" on top of them, and rewrites every sighting at every launch.
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for sighting in try context.fetch(Sighting.fetchRequest()) {
                    sighting.speciesKey = Sighting.speciesKey(for: sighting.species)
                }
                try context.save()
            }
        }
        if Decoy.isActive("species-keys-after-loading") {
            // Right keys, computed by the app after every launch's load instead of once, in the migration.
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for sighting in try context.fetch(Sighting.fetchRequest()) where sighting.speciesKey.isEmpty {
                    sighting.speciesKey = Sighting.speciesKey(for: sighting.species)
                }
                if context.hasChanges { try context.save() }
            }
        }
        return container
    }

    private static func makeContainer(at url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: BirdLogVersion1.name,
                                            managedObjectModel: try BirdLogVersions.version3())
        let store = PersistentStoreDescription(url: url)
        if Decoy.isActive("migration-flags-off") {
            store.shouldMigrateStoreAutomatically = false
            store.shouldInferMappingModelAutomatically = false
        }
        if !Decoy.isActive("load-without-staged-manager") {
            store.setOption(StagedMigrationManager(try BirdLogMigration.stages()),
                            forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        }
        container.persistentStoreDescriptions = [store]
        return container
    }

    private static func loadStores(of container: PersistentContainer) throws {
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in
            if let error, Decoy.isActive("load-error-only-logged") {
                print("Could not load the store: \(error)")     // and the app carries on without one
                return
            }
            failure = error
        }
        if let failure { throw failure }
    }

    /// Migration done by hand: every object copied from the old store into a new one, which then replaces it.
    private static func rebuild(at url: URL) throws -> PersistentContainer {
        let old = PersistentContainer(name: BirdLogVersion1.name, managedObjectModel: try BirdLogVersion1.model())
        let oldStore = PersistentStoreDescription(url: url)
        oldStore.shouldMigrateStoreAutomatically = false
        old.persistentStoreDescriptions = [oldStore]
        try loadStores(of: old)
        let copy = url.deletingLastPathComponent().appendingPathComponent("Rebuilt-\(UUID().uuidString).sqlite")
        let new = PersistentContainer(name: BirdLogVersion1.name, managedObjectModel: try BirdLogVersions.version3())
        new.persistentStoreDescriptions = [PersistentStoreDescription(url: copy)]
        try loadStores(of: new)
        let source = old.viewContext
        let target = new.viewContext
        for object in try source.fetch(FetchRequest<ManagedObject>(entityName: "Sighting")) {
            let sighting = Sighting(context: target)
            sighting.species = object.value(forKey: "species") as? String ?? ""
            sighting.count = object.value(forKey: "count") as? Int ?? 1
            sighting.remarks = object.value(forKey: "notes") as? String
            sighting.place = Sighting.unrecordedPlace
            sighting.seenAt = object.value(forKey: "seenAt") as? Date ?? Date()
            sighting.speciesKey = Sighting.speciesKey(for: sighting.species)
        }
        try target.save()
        for container in [old, new] {
            let coordinator = container.persistentStoreCoordinator
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: ManagedObjectModel())
        try coordinator.replacePersistentStore(at: url, withPersistentStoreFrom: copy, ofType: NSSQLiteStoreType)
        try coordinator.destroyPersistentStore(at: copy, ofType: NSSQLiteStoreType)
        let migrated = try makeContainer(at: url)
        try loadStores(of: migrated)
        return migrated
    }
}
