/// What one save writes, in the context's objects, once the merge policy has resolved conflicts. The store gets it
/// as plain values (``storeRequest()``); the policy's decisions are applied to it, and to the objects, in the
/// context, between the store's answers.
struct SavePlan {
    var inserted: [ManagedObject]
    var updated: [ManagedObject]
    var deleted: [ManagedObject]
    /// Objects whose row another context deleted and that the policy writes again, under the same ID.
    var reinserted: [ManagedObject] = []
    /// New objects that take over a stored row they clash with under a uniqueness constraint (written as an update
    /// of that row, whose key ``savingPrimaryKey(of:)`` gives).
    var takeovers: [ManagedObject] = []
    /// Objects the policy drops from the context: their row is gone, or a stored row won their clash.
    var dropped: [ManagedObject] = []
    /// How many primary keys the write gave inserted objects, by entity index (empty until the write).
    var allocatedKeyCounts: [Int] = []
    /// The state of every object resolution changed, put back if the save fails after all.
    private(set) var backups: [(object: ManagedObject, state: ObjectState)] = []
    /// The primary keys this save gives new objects (0: none), by each object's place in its context's list of
    /// inserted objects. Kept here rather than in every object: it is needed only while a save is written.
    /// Before the write it holds the takeovers' keys alone; the store's receipt completes it.
    var savingKeys: [Int64] = []

    /// The primary key `object` (a new object) is written under in this save, or 0 when it has none.
    func savingPrimaryKey(of object: ManagedObject) -> Int64 {
        Self.savingPrimaryKey(of: object, in: savingKeys)
    }

    /// The primary key of `object` in `keys` (a copy of ``savingKeys``), or 0.
    @inline(__always)
    static func savingPrimaryKey(of object: ManagedObject, in keys: [Int64]) -> Int64 {
        let position = Int(object.insertedPosition)
        return position >= 0 && position < keys.count ? keys[position] : 0
    }

    /// Gives `object`, one of the context's inserted objects, the key it is written under (0 takes it back).
    mutating func setSavingPrimaryKey(_ key: Int64, of object: ManagedObject) {
        let position = Int(object.insertedPosition)
        guard position >= 0 else {
            precondition(key == 0, "only the context's inserted objects are given keys")
            return
        }
        if position >= savingKeys.count {
            // Doubled, not grown by one: a save gives keys to tens of thousands of objects, one after another.
            let count = max(position + 1, savingKeys.count * 2, 64)
            savingKeys.append(contentsOf: repeatElement(0, count: count - savingKeys.count))
        }
        savingKeys[position] = key
    }

    /// The parts of an object's state that conflict resolution may change.
    struct ObjectState {
        let slots: [PropertySlot]
        let committedSlots: [PropertySlot]?
        let version: Int64
        let changedIndexes: Set<Int>

        init(of object: ManagedObject) {
            slots = object.slots
            committedSlots = object.committedSlots
            version = object.version
            changedIndexes = object.changedIndexes
        }

        func restore(_ object: ManagedObject) {
            object.slots = slots
            object.committedSlots = committedSlots
            object.version = version
            object.changedIndexes = changedIndexes
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
