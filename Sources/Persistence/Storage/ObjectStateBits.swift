/// A managed object's fault state and flags in one byte.
///
/// A fetch allocates an object per row, and malloc hands out blocks in steps of 16 bytes: five one-byte fields
/// and their padding were the difference between two of those steps.
struct ObjectStateBits {
    /// One bit each; bits 0 and 1 hold the fault state.
    enum Flag: UInt8 {
        case inserted = 0b0000_0100
        case deleted = 0b0000_1000
        /// A typed setter had to keep a value that does not fit its attribute.
        case holdsUnfittingValue = 0b0001_0000
        /// A fault fired and found its row gone.
        case inaccessible = 0b0010_0000
        /// In the context's list of updated objects (see ``ObjectList``).
        case inUpdatedList = 0b0100_0000
        /// In the context's list of deleted objects.
        case inDeletedList = 0b1000_0000
    }

    private var bits: UInt8
    private static let faultStateMask: UInt8 = 0b11

    init(faultState: ManagedObject.FaultState) {
        bits = faultState.rawValue
    }

    // The state is stored as its raw value, which is the case's own number (0, 1, 2): reading it back is a mask,
    // not a switch.
    var faultState: ManagedObject.FaultState {
        @inline(__always) get { unsafeBitCast(bits & Self.faultStateMask, to: ManagedObject.FaultState.self) }
        @inline(__always) set { bits = bits & ~Self.faultStateMask | newValue.rawValue }
    }

    subscript(flag: Flag) -> Bool {
        @inline(__always) get { bits & flag.rawValue != 0 }
        @inline(__always) set { bits = newValue ? bits | flag.rawValue : bits & ~flag.rawValue }
    }
}

extension ManagedObject {
    /// Whether the values are loaded (see ``FaultState``).
    var faultState: FaultState {
        @inline(__always) get { stateBits.faultState }
        @inline(__always) set { stateBits.faultState = newValue }
    }

    /// Inserted and not yet saved.
    var insertedFlag: Bool { get { stateBits[.inserted] } set { stateBits[.inserted] = newValue } }
    /// Deleted in its context (until the deletion is saved or rolled back).
    var deletedFlag: Bool { get { stateBits[.deleted] } set { stateBits[.deleted] = newValue } }
    /// Set when a typed setter had to keep a value that does not fit its attribute; validation then checks types.
    var holdsUnfittingValue: Bool {
        get { stateBits[.holdsUnfittingValue] }
        set { stateBits[.holdsUnfittingValue] = newValue }
    }
    /// Set when a fault fired and found its row gone.
    var inaccessible: Bool { get { stateBits[.inaccessible] } set { stateBits[.inaccessible] = newValue } }
}
