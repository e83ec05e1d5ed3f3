/// A managed object's fault state and flags in one byte.
///
/// A fetch allocates an object per row, and malloc hands out blocks in steps of 16 bytes: five one-byte fields
/// and their padding were the difference between two of those steps.
struct ObjectStateBits {
    private var bits: UInt8

    private static let faultStateMask: UInt8 = 0b11
    private static let inserted: UInt8 = 1 << 2
    private static let deleted: UInt8 = 1 << 3
    private static let holdsUnfittingValue: UInt8 = 1 << 4
    private static let inaccessible: UInt8 = 1 << 5
    private static let inUpdatedList: UInt8 = 1 << 6
    private static let inDeletedList: UInt8 = 1 << 7

    init(faultState: ManagedObject.FaultState) {
        bits = faultState.rawValue
    }

    // The state is stored as its raw value, which is the case's own number (0, 1, 2): reading it back is a mask,
    // not a switch.
    var faultState: ManagedObject.FaultState {
        @inline(__always) get { unsafeBitCast(bits & Self.faultStateMask, to: ManagedObject.FaultState.self) }
        @inline(__always) set { bits = bits & ~Self.faultStateMask | newValue.rawValue }
    }

    @inline(__always)
    private func has(_ flag: UInt8) -> Bool { bits & flag != 0 }

    @inline(__always)
    private mutating func set(_ flag: UInt8, _ on: Bool) {
        bits = on ? bits | flag : bits & ~flag
    }

    var isInserted: Bool {
        @inline(__always) get { has(Self.inserted) }
        @inline(__always) set { set(Self.inserted, newValue) }
    }

    var isDeleted: Bool {
        @inline(__always) get { has(Self.deleted) }
        @inline(__always) set { set(Self.deleted, newValue) }
    }

    var holdsUnfittingValue: Bool {
        @inline(__always) get { has(Self.holdsUnfittingValue) }
        @inline(__always) set { set(Self.holdsUnfittingValue, newValue) }
    }

    var isInaccessible: Bool {
        @inline(__always) get { has(Self.inaccessible) }
        @inline(__always) set { set(Self.inaccessible, newValue) }
    }

    /// In the context's list of updated objects (see ``ObjectList``).
    var isInUpdatedList: Bool {
        @inline(__always) get { has(Self.inUpdatedList) }
        @inline(__always) set { set(Self.inUpdatedList, newValue) }
    }

    /// In the context's list of deleted objects.
    var isInDeletedList: Bool {
        @inline(__always) get { has(Self.inDeletedList) }
        @inline(__always) set { set(Self.inDeletedList, newValue) }
    }
}

extension ManagedObject {
    /// Whether the values are loaded (see ``FaultState``).
    var faultState: FaultState {
        @inline(__always) get { stateBits.faultState }
        @inline(__always) set { stateBits.faultState = newValue }
    }

    /// Inserted and not yet saved.
    var insertedFlag: Bool {
        @inline(__always) get { stateBits.isInserted }
        @inline(__always) set { stateBits.isInserted = newValue }
    }

    /// Deleted in its context (until the deletion is saved or rolled back).
    var deletedFlag: Bool {
        @inline(__always) get { stateBits.isDeleted }
        @inline(__always) set { stateBits.isDeleted = newValue }
    }

    /// Set when a typed setter had to keep a value that does not fit its attribute; validation then checks types.
    var holdsUnfittingValue: Bool {
        @inline(__always) get { stateBits.holdsUnfittingValue }
        @inline(__always) set { stateBits.holdsUnfittingValue = newValue }
    }

    /// Set when a fault fired and found its row gone.
    var inaccessible: Bool {
        @inline(__always) get { stateBits.isInaccessible }
        @inline(__always) set { stateBits.isInaccessible = newValue }
    }
}
