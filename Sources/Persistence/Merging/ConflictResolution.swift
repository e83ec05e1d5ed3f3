/// The conflicts of one save being resolved by the context's ``MergePolicy``: the plan that the policy's default
/// implementations (``MergePolicy/resolve(optimisticLockingConflicts:)``, ``MergePolicy/resolve(constraintConflicts:)``)
/// change, and what the store found behind each conflict.
///
/// A policy's methods take only the conflicts (as Core Data's do), so the save makes its resolution ``current``
/// while it calls them, on the context's queue; a subclass calling `super` reaches the same resolution.
final class ConflictResolution: @unchecked Sendable {
    // (Unchecked: made, used and let go on the saving context's queue, within one call of the policy.)

    /// The resolution under way in this synchronous call, if any.
    @TaskLocal static var current: ConflictResolution?

    var plan: SavePlan
    /// The store's version conflicts not yet resolved, by object: a conflict is resolved once, however many times
    /// an override calls `super` with it.
    private var versions: [ObjectIdentifier: ConflictResolver.VersionConflict]
    /// New objects whose clash with a stored row was settled.
    private var settledClashes = Set<ObjectIdentifier>()
    /// New objects discarded as duplicates of other new objects.
    private var discarded: Set<ObjectIdentifier>

    init(plan: SavePlan, versions: [ConflictResolver.VersionConflict] = []) {
        self.plan = plan
        self.versions = Dictionary(versions.map { (ObjectIdentifier($0.object), $0) }, uniquingKeysWith: { first, _ in first })
        self.discarded = Set(plan.dropped.map(ObjectIdentifier.init))
    }

    /// The rules of `policy` (not ``MergePolicy/error``) for the conflicts of `list` that are this save's.
    func resolveVersionConflicts(_ list: [MergeConflict], under policy: MergePolicy) throws {
        var found: [ConflictResolver.VersionConflict] = []
        for conflict in list {
            guard let entry = versions.removeValue(forKey: ObjectIdentifier(conflict.sourceObject)) else { continue }
            found.append(entry)
        }
        try ConflictResolver(policy: policy).resolveVersionConflicts(found, in: &plan)
    }

    /// The rules of `policy` (not ``MergePolicy/error``) for the conflicts of `list` that are this save's.
    func resolveConstraintConflicts(_ list: [ConstraintConflict], under policy: MergePolicy) throws {
        let resolver = ConflictResolver(policy: policy)
        var losers = Set<ObjectIdentifier>()
        for conflict in list {
            if conflict.databaseObject != nil {
                let pending = conflict.clashes.filter { settledClashes.insert(ObjectIdentifier($0.object)).inserted }
                try resolver.resolveConstraintConflicts(pending, in: &plan)
                continue
            }
            // Among new objects: the rule of ConflictResolver.resolveDuplicateInsertions, clash by clash.
            let remaining = conflict.conflictingObjects.filter {
                $0.insertedFlag && !$0.deletedFlag && !discarded.contains(ObjectIdentifier($0))
            }
            guard remaining.count > 1 else { continue }
            let survivor = policy.objectWins ? remaining.last! : remaining.first!
            for object in remaining where object !== survivor {
                discarded.insert(ObjectIdentifier(object))
                losers.insert(ObjectIdentifier(object))
            }
        }
        guard !losers.isEmpty else { return }
        plan.dropped += plan.inserted.filter { losers.contains(ObjectIdentifier($0)) }
        plan.inserted.removeAll { losers.contains(ObjectIdentifier($0)) }
    }

    /// Adds to the plan's updated objects those of `candidates` (objects the policy was handed, or changed) that
    /// have changes to write and are not written otherwise: an override's changes after `super` are saved.
    func includeChanged(_ candidates: [ManagedObject]) {
        var planned: Set<ObjectIdentifier>?
        for object in candidates where !object.deletedFlag && !object.insertedFlag && !object.changedIndexes.isEmpty {
            if planned == nil {
                planned = Set((plan.updated + plan.reinserted + plan.takeovers + plan.dropped).map(ObjectIdentifier.init))
            }
            if planned!.insert(ObjectIdentifier(object)).inserted { plan.updated.append(object) }
        }
    }
}
