/// What one save wrote, by object ID: `Sendable`, so it can be handed to any queue or task (the objects themselves
/// cannot).
public struct ContextDidSave: Sendable, Hashable {
    public var insertedObjectIDs: Set<ManagedObjectID>
    public var updatedObjectIDs: Set<ManagedObjectID>
    public var deletedObjectIDs: Set<ManagedObjectID>

    public init(insertedObjectIDs: Set<ManagedObjectID> = [], updatedObjectIDs: Set<ManagedObjectID> = [],
                deletedObjectIDs: Set<ManagedObjectID> = []) {
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
    }

    public var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }
}
