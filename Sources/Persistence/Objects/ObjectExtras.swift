/// The state of a ``ManagedObject`` that most objects never need: the values to roll back to and the properties
/// changed since the last save (only once the object is changed), the batch a fault is read with, and the recorder of
/// the samples that translate key paths. A fetch makes an object per row, and none of them needs any of this until
/// something changes it, so it lives apart and is made on first need.
final class ObjectExtras {
    var committedSlots: [PropertySlot]?
    var changedIndexes: Set<Int> = []
    var batch: FaultBatch?
    var keyPathRecorder: KeyPathRecorder?
}

extension ManagedObject {
    /// The extras, made now if the object has none.
    @inline(__always)
    private var writableExtras: ObjectExtras {
        if let extras { return extras }
        let made = ObjectExtras()
        extras = made
        return made
    }

    /// The values last read from or written to the store (what rollback restores); `nil` for inserted objects and
    /// for objects with no change.
    var committedSlots: [PropertySlot]? {
        get { extras?.committedSlots }
        set {
            if newValue == nil && extras == nil { return }
            writableExtras.committedSlots = newValue
        }
    }

    /// Properties set since the last save; only tracked for objects that are not inserted.
    var changedIndexes: Set<Int> {
        get { extras?.changedIndexes ?? [] }
        set {
            if newValue.isEmpty && extras == nil { return }
            writableExtras.changedIndexes = newValue
        }
        _modify { yield &writableExtras.changedIndexes }
    }

    /// The batch this fault's row is read with (``FetchRequest/fetchBatchSize``).
    var batch: FaultBatch? {
        get { extras?.batch }
        set {
            if newValue == nil && extras == nil { return }
            writableExtras.batch = newValue
        }
    }

    /// Set only on the samples that translate Swift key paths into model key paths.
    final var keyPathRecorder: KeyPathRecorder? {
        get { extras?.keyPathRecorder }
        set {
            if newValue == nil && extras == nil { return }
            writableExtras.keyPathRecorder = newValue
        }
    }
}
