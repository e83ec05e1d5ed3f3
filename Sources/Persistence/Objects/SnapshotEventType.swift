/// Why an object's values were set back from a snapshot, passed to ``ManagedObject/awake(fromSnapshotEvents:)``:
/// Core Data's `NSSnapshotEventType`, with its raw values.
public struct SnapshotEventType: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// The events of `rawValue`.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// An insertion was undone (this library has no undo manager: never passed).
    public static let undoInsertion = SnapshotEventType(rawValue: 1 << 1)
    /// A deletion was undone (never passed: no undo manager).
    public static let undoDeletion = SnapshotEventType(rawValue: 1 << 2)
    /// A property change was undone (never passed: no undo manager).
    public static let undoUpdate = SnapshotEventType(rawValue: 1 << 3)
    /// The context was rolled back.
    public static let rollback = SnapshotEventType(rawValue: 1 << 4)
    /// The object was refreshed, its changes merged over the store's values.
    public static let refresh = SnapshotEventType(rawValue: 1 << 5)
    /// A merge policy resolved a conflict during a save (not passed yet).
    public static let mergePolicy = SnapshotEventType(rawValue: 1 << 6)
}
