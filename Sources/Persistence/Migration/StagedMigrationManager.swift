import Foundation

/// Core Data's `NSStagedMigrationManager` (iOS 17): migrates a store through a sequence of model versions, stage
/// by stage, each stage lightweight or custom — for the changes inference alone cannot make, such as computing a
/// new attribute from data the old model held.
///
/// ```swift
/// let stage = CustomMigrationStage(migratingFrom: ManagedObjectModelReference(model: v1, versionChecksum: v1.versionChecksum),
///                                  to: ManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum))
/// stage.didMigrateHandler = { manager, _ in
///     let context = manager.container!.newBackgroundContext()     // on version 2
///     try context.performAndWait { /* fill the new attribute */ try context.save() }
/// }
/// description.setOption(StagedMigrationManager([stage]), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
/// ```
///
/// When the store loads, the manager finds the model version the store was written with among its stages' models
/// (by version hashes), then runs every step after it in order: a lightweight step infers the mapping, as
/// automatic migration does; a custom stage calls ``CustomMigrationStage/willMigrateHandler`` with ``container``
/// loaded on the stage's old model, migrates lightweight to its new model, and calls
/// ``CustomMigrationStage/didMigrateHandler`` with ``container`` loaded on the new one. Each lightweight step is one
/// SQLite transaction; what a handler saves is saved as it goes, as in Core Data, where a staged migration is not
/// one transaction either. When the last stage's model is not the store's current model, a last lightweight step
/// reaches it.
public final class StagedMigrationManager: NSObject, @unchecked Sendable {
    /// The stages, in the order they run.
    public let stages: [MigrationStage]
    /// While a custom stage's handler runs: a container with the store loaded on that stage's old model (in
    /// `willMigrateHandler`) or its new model (in `didMigrateHandler`). Nil otherwise.
    public private(set) var container: PersistentContainer?

    /// A manager of `stages`, run in order.
    public init(_ stages: [MigrationStage]) {
        self.stages = stages
    }

    /// One step of the whole migration: to `model`, within `custom` when it is a custom stage's.
    private struct Step {
        let model: ManagedObjectModel
        let custom: CustomMigrationStage?
    }

    /// Migrates the store at `url` to `model` through the stages.
    func migrate(storeAt url: URL, metadata: [String: Any], to model: ManagedObjectModel) throws {
        // A version that cannot be read is left out: a stage naming it then says it is unknown.
        let known = [model] + ((try? model.versionsLoader?()) ?? []).compactMap { try? $0.load() }
        func resolve(_ checksum: String, in stage: MigrationStage) throws -> ManagedObjectModel {
            if let found = known.first(where: { $0.versionChecksum == checksum }) { return found }
            for case let custom as CustomMigrationStage in stages {
                for reference in [custom.currentModel, custom.nextModel] where reference.versionChecksum == checksum {
                    return try reference.resolved()
                }
            }
            throw PersistenceError(.migrationMissingSourceModel, "Staged migration: the stage '\(stage.label ?? "")' names the model version \(checksum), which is none of the versions known (the stages' models and the versions of the current model's .xcdatamodeld).", url: url)
        }
        // The models of the stages, in order, each with the custom stage that leads to it.
        var checkpoints: [Step] = []
        for stage in stages {
            if let custom = stage as? CustomMigrationStage {
                let from = try custom.currentModel.resolved()
                if checkpoints.last.map({ $0.model.versionChecksum != from.versionChecksum }) ?? true {
                    checkpoints.append(Step(model: from, custom: nil))
                }
                checkpoints.append(Step(model: try custom.nextModel.resolved(), custom: custom))
            } else if let lightweight = stage as? LightweightMigrationStage {
                for checksum in lightweight.versionChecksums {
                    checkpoints.append(Step(model: try resolve(checksum, in: stage), custom: nil))
                }
            }
        }
        if checkpoints.last.map({ $0.model.versionChecksum != model.versionChecksum }) ?? true {
            checkpoints.append(Step(model: model, custom: nil))
        }
        guard let start = checkpoints.lastIndex(where: { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }) else {
            throw PersistenceError(.migrationMissingSourceModel,
                                   "Persistent store migration failed, missing source managed object model: none of the staged migration's model versions wrote the store at \(url.path).",
                                   url: url)
        }
        var current = checkpoints[start].model
        PersistenceDebugLog.migration("staged migration of the store at \(url.path): \(checkpoints.count - start - 1) steps from model version checksum \(current.versionChecksum)")
        for step in checkpoints[(start + 1)...] {
            PersistenceDebugLog.migration("staged migration: step to model version checksum \(step.model.versionChecksum)" + (step.custom == nil ? "" : " (a custom stage)"))
            if let custom = step.custom, let handler = custom.willMigrateHandler {
                try withContainer(on: current, at: url) { try handler(self, custom) }
            }
            let stored = try SQLiteStore.metadata(at: url)
            if !step.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: stored) {
                try LightweightMigration.migrate(storeAt: url, metadata: stored, from: current, to: step.model)
            }
            current = step.model
            if let custom = step.custom, let handler = custom.didMigrateHandler {
                try withContainer(on: current, at: url) { try handler(self, custom) }
            }
        }
    }

    /// Runs `body` with ``container`` loaded on `model` at `url`, then closes the store.
    private func withContainer(on model: ManagedObjectModel, at url: URL, _ body: () throws -> Void) throws {
        let container = PersistentContainer(name: "StagedMigration", managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        self.container = container
        defer {
            self.container = nil
            container.persistentStoreCoordinator.closeStore()
        }
        try body()
    }
}

/// One stage of a ``StagedMigrationManager`` (Core Data's `NSMigrationStage`).
public class MigrationStage: NSObject, @unchecked Sendable {
    /// A name for the stage, for your logs and errors.
    public var label: String?
}

/// A stage that migrates lightweight through the model versions whose ``ManagedObjectModel/versionChecksum``s it
/// lists, in order (Core Data's `NSLightweightMigrationStage`). The versions are looked up among the current
/// model's `.xcdatamodeld` versions and the models the manager's custom stages name.
public final class LightweightMigrationStage: MigrationStage, @unchecked Sendable {
    /// The version checksums, oldest first.
    public let versionChecksums: [String]

    /// A stage through the versions of `versionChecksums`, oldest first.
    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
    }
}

/// A stage from one model version to the next with code of yours before and after (Core Data's
/// `NSCustomMigrationStage`): the store is migrated lightweight between the two, so the new model must differ from
/// the old by lightweight changes only; the handlers move the data inference cannot (read the old values in
/// `willMigrateHandler`, or keep them in an attribute both versions have, and compute the new ones in
/// `didMigrateHandler`).
public final class CustomMigrationStage: MigrationStage, @unchecked Sendable {
    /// The model version the stage starts from.
    public let currentModel: ManagedObjectModelReference
    /// The model version the stage migrates to.
    public let nextModel: ManagedObjectModelReference
    /// Called before the migration, with the manager's ``StagedMigrationManager/container`` loaded on
    /// ``currentModel``; an error stops the migration and fails the store's loading.
    public var willMigrateHandler: ((StagedMigrationManager, CustomMigrationStage) throws -> Void)?
    /// Called after the migration, with the manager's ``StagedMigrationManager/container`` loaded on ``nextModel``.
    public var didMigrateHandler: ((StagedMigrationManager, CustomMigrationStage) throws -> Void)?

    /// A stage from `currentModel` to `nextModel`.
    public init(migratingFrom currentModel: ManagedObjectModelReference, to nextModel: ManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
    }
}

/// A model version a migration stage names (Core Data's `NSManagedObjectModelReference`): a model, or where to read
/// one, with the checksum it must have.
public final class ManagedObjectModelReference: NSObject, @unchecked Sendable {
    /// The ``ManagedObjectModel/versionChecksum`` the model must have.
    public let versionChecksum: String
    private let load: () throws -> ManagedObjectModel
    private var loaded: ManagedObjectModel?

    /// A reference to `model`.
    public init(model: ManagedObjectModel, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        self.load = { model }
    }

    /// A reference to the model version at `fileURL` (a `.xcdatamodel` folder, or a `.xcdatamodeld` for its
    /// current version).
    public init(fileURL: URL, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        self.load = { try ManagedObjectModel(contentsOf: fileURL, managedObjectClasses: []) }
    }

    /// The model, read if need be. Non-optional, as Core Data's: a reference that cannot be resolved (no model at
    /// its URL, or one whose checksum is not ``versionChecksum``) is a programming error, and reading this property
    /// then stops the program with the reason. Apple documents no behaviour for that case; this is the stricter
    /// reading. A staged migration does not read it: it reports such a reference as an error of the store's loading.
    public var resolvedModel: ManagedObjectModel {
        do {
            return try resolved()
        } catch {
            fatalError("ManagedObjectModelReference.resolvedModel: the reference cannot be resolved: \(error)")
        }
    }

    func resolved() throws -> ManagedObjectModel {
        if let loaded { return loaded }
        let model = try load()
        guard model.versionChecksum == versionChecksum else {
            throw PersistenceError(.migrationMissingSourceModel, "A model reference expects version checksum \(versionChecksum), but its model's is \(model.versionChecksum).")
        }
        loaded = model
        return model
    }
}
