/// One property's value as it crosses from a parent context to a child (or back): related objects travel as IDs,
/// since objects belong to one context.
enum SlotSnapshot: Sendable {
    case value(PersistentValue)
    case toOne(ManagedObjectID?)
    case toOneKey(Int64)
    /// `nil` while the list has not been read.
    case toMany([ManagedObjectID]?)

    init(_ slot: PropertySlot) {
        switch slot {
        case .value(let value): self = .value(value)
        case .toOne(let object): self = .toOne(object?.objectID)
        case .toOneKey(let key): self = .toOneKey(key)
        case .toMany(let related): self = .toMany(related?.objects.map(\.objectID))
        }
    }

    /// The slot in `context`, with IDs turned into that context's objects.
    func slot(in context: ManagedObjectContext) -> PropertySlot {
        switch self {
        case .value(let value): .value(value)
        case .toOne(let id): .toOne(id.map(context.object(with:)))
        case .toOneKey(let key): .toOneKey(key)
        case .toMany(let ids): .toMany(ids.map { RelatedObjects($0.map(context.object(with:))) })
        }
    }
}
