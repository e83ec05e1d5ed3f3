import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public enum BirdLogMigration {
    public static func stages() throws -> [MigrationStage] {
        let v1 = try BirdLogVersion1.model()
        let v2 = try BirdLogVersions.version2()
        let v3 = try BirdLogVersions.version3()
        let toVersion2 = CustomMigrationStage(migratingFrom: reference(to: v1), to: reference(to: v2))
        if Decoy.isActive("stages-skip-version-2") {
            // One step from the first release to the current version: a version 2 store is none of its versions.
            let straight = CustomMigrationStage(migratingFrom: reference(to: v1), to: reference(to: v3))
            straight.didMigrateHandler = fillSpeciesKeys
            return [straight]
        }
        let toVersion3 = CustomMigrationStage(migratingFrom: reference(to: v2), to: reference(to: v3))
        if Decoy.isActive("species-keys-in-first-stage") {
            // "After migrating from version 1": the first step ends on version 2, which has no speciesKey, and a
            // version 2 store never runs it.
            toVersion2.didMigrateHandler = fillSpeciesKeys
            return [toVersion2, toVersion3]
        }
        if Decoy.isActive("species-keys-in-will-migrate") {
            // Before the step the manager's container is on version 2, which has no speciesKey.
            toVersion3.willMigrateHandler = fillSpeciesKeys
        } else if !Decoy.isActive("species-keys-after-loading") {
            toVersion3.didMigrateHandler = fillSpeciesKeys
        }
        if Decoy.isActive("no-stage-from-version-1") {
            return [toVersion3]                 // only the newest change; first-release stores are not found
        }
        return [toVersion2, toVersion3]
    }

    private static func fillSpeciesKeys(_ manager: StagedMigrationManager, _ stage: CustomMigrationStage) throws {
        guard let container = manager.container else { return }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for sighting in try context.fetch(FetchRequest<ManagedObject>(entityName: "Sighting")) {
                let species = sighting.value(forKey: "species") as? String ?? ""
                // A key made by hand, lower case without accents: right for most names, not for "Weißstorch".
                let key = Decoy.isActive("species-key-by-hand")
                    ? species.lowercased().folding(options: .diacriticInsensitive, locale: nil)
                    : Sighting.speciesKey(for: species)
                sighting.setValue(key, forKey: "speciesKey")
            }
            // Set, never saved: the context goes away with its changes when the handler returns.
            if !Decoy.isActive("species-keys-never-saved") { try context.save() }
        }
    }

    private static func reference(to model: ManagedObjectModel) -> ManagedObjectModelReference {
        ManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum)
    }
}
