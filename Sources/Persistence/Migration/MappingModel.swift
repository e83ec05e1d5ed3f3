import Foundation

/// How to turn a store written with one version of a model into a store of another (Core Data's `NSMappingModel`),
/// for ``MigrationManager``.
///
/// Persistence makes mapping models by inference only — the changes Apple lists as lightweight (see
/// ``PersistentStoreDescription/shouldInferMappingModelAutomatically``). It reads no mapping model files: Xcode's
/// `.xcmappingmodel` and its entity migration policies need the Objective-C runtime, so
/// ``init(from:forSourceModel:destinationModel:)`` finds none and answers nil, as Core Data does when a bundle has
/// no mapping model for the two versions.
public final class MappingModel: @unchecked Sendable, CustomStringConvertible {
    /// The version the mapping reads from.
    public let sourceModel: ManagedObjectModel
    /// The version the mapping writes.
    public let destinationModel: ManagedObjectModel
    private init(source: ManagedObjectModel, destination: ManagedObjectModel) {
        sourceModel = source
        destinationModel = destination
    }

    /// The mapping Core Data would infer for a lightweight migration from `sourceModel` to `destinationModel`.
    /// - Throws: error 134190 (Core Data's `NSInferredMappingModelError`) naming the entity, the
    ///   property and why, when a change is not lightweight.
    public class func inferredMappingModel(forSourceModel sourceModel: ManagedObjectModel,
                                           destinationModel: ManagedObjectModel) throws -> MappingModel {
        do {
            // Planned here to find out whether the change is lightweight; a migration plans again against the
            // store it rewrites (its indexes decide some of the SQL).
            _ = try MigrationPlanner(from: sourceModel, to: destinationModel).plan()
            return MappingModel(source: sourceModel, destination: destinationModel)
        } catch let error as PersistenceError {
            throw error.with(code: .inferredMappingModel)
        }
    }

    /// Core Data's search of `bundles` for a mapping model file from `sourceModel` to `destinationModel`. Persistence
    /// reads no mapping model files (see ``MappingModel``), so this always answers nil; use
    /// ``inferredMappingModel(forSourceModel:destinationModel:)`` for a lightweight change.
    public convenience init?(from bundles: [Bundle]?, forSourceModel sourceModel: ManagedObjectModel?,
                             destinationModel: ManagedObjectModel?) {
        return nil
    }

    public var description: String {
        "<mapping \(sourceModel.versionIdentifiers.map { "\($0)" }.sorted()) → \(destinationModel.versionIdentifiers.map { "\($0)" }.sorted())>"
    }
}
