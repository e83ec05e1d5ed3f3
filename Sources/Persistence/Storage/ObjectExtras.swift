/// The state of a ``ManagedObject`` that most objects never need: the values to roll back to and the properties
/// changed since the last save (only once the object is changed), the batch a fault is read with, and the recorder of
/// the samples that translate key paths. A fetch makes an object per row, and none of them needs any of this until
/// something changes it, so it lives apart and is made on first need.
final class ObjectExtras {
    var committedSlots: [PropertySlot]?
    var changedIndexes: Set<Int> = []
    var batch: FaultBatch?
    var keyPathRecorder: KeyPathRecorder?
    /// The row version when it does not fit the object's 32 bits (a store written by something else).
    var wideVersion: Int64?

    /// `true` when nothing here is needed any more.
    var isEmpty: Bool {
        committedSlots == nil && changedIndexes.isEmpty && batch == nil && keyPathRecorder == nil && wideVersion == nil
    }
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

    static var wideVersionMark: Int32 { .min }

    /// The row version (`Z_OPT`) that ``committedSlots`` belong to; optimistic locking compares it at save.
    var version: Int64 {
        @inline(__always) get {
            compactVersion != Self.wideVersionMark ? Int64(compactVersion) : extras?.wideVersion ?? 0
        }
        set {
            if let compact = Int32(exactly: newValue), compact != Self.wideVersionMark {
                compactVersion = compact
                if let extras, extras.wideVersion != nil { extras.wideVersion = nil }
            } else {
                compactVersion = Self.wideVersionMark
                writableExtras.wideVersion = newValue
            }
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
