/// What one save wrote, by object ID: `Sendable`, so it can be handed to any queue or task (the objects themselves
/// cannot).
@_spi(TestHarness) public struct ContextDidSave: Sendable, Hashable {
    /// The objects the save inserted.
    public var insertedObjectIDs: Set<ManagedObjectID>
    /// The objects the save updated.
    public var updatedObjectIDs: Set<ManagedObjectID>
    /// The objects the save deleted.
    public var deletedObjectIDs: Set<ManagedObjectID>

    /// A save's IDs (what ``ManagedObjectContext/saves()`` yields).
    public init(insertedObjectIDs: Set<ManagedObjectID> = [], updatedObjectIDs: Set<ManagedObjectID> = [],
                deletedObjectIDs: Set<ManagedObjectID> = []) {
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
    }

    /// `true` when the save wrote nothing.
    public var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }
}
