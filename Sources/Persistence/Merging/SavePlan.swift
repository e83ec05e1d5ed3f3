/// What one save writes, once the merge policy has resolved conflicts.
struct SavePlan {
    var inserted: [ManagedObject]
    var updated: [ManagedObject]
    var deleted: [ManagedObject]
    /// Objects whose row another context deleted and that the policy writes again, under the same ID.
    var reinserted: [ManagedObject] = []
    /// New objects that take over a stored row they clash with under a uniqueness constraint (written as an update
    /// of that row; `savingPrimaryKey` holds its key).
    var takeovers: [ManagedObject] = []
    /// Objects the policy drops from the context: their row is gone, or a stored row won their clash.
    var dropped: [ManagedObject] = []
    /// How many primary keys the write gave inserted objects, by entity index (empty until keys are allocated).
    var allocatedKeyCounts: [Int] = []
    /// The state of every object resolution changed, put back if the save fails after all.
    private(set) var backups: [(object: ManagedObject, state: ObjectState)] = []

    /// The parts of an object's state that conflict resolution may change.
    struct ObjectState {
        let slots: [PropertySlot]
        let committedSlots: [PropertySlot]?
        let version: Int64
        let changedIndexes: Set<Int>
        let savingPrimaryKey: Int64

        init(of object: ManagedObject) {
            slots = object.slots
            committedSlots = object.committedSlots
            version = object.version
            changedIndexes = object.changedIndexes
            savingPrimaryKey = object.savingPrimaryKey
        }

        func restore(_ object: ManagedObject) {
            object.slots = slots
            object.committedSlots = committedSlots
            object.version = version
            object.changedIndexes = changedIndexes
            object.savingPrimaryKey = savingPrimaryKey
        }
    }

    mutating func backUp(_ object: ManagedObject) {
        guard !backups.contains(where: { $0.object === object }) else { return }
        backups.append((object, ObjectState(of: object)))
    }

    func restoreBackups() {
        for backup in backups { backup.state.restore(backup.object) }
    }

    mutating func removeUpdated(_ object: ManagedObject) {
        updated.removeAll { $0 === object }
    }

    mutating func removeInserted(_ object: ManagedObject) {
        inserted.removeAll { $0 === object }
    }
}
