import Foundation

/// One object's change within a ``PersistentHistoryTransaction``: inserted, updated (which properties) or deleted
/// (with the values it preserved) — Core Data's `NSPersistentHistoryChange`.
///
/// A transaction holds one change per object: an object inserted and then updated in the same transaction (an
/// ordered relationship's positions written after the rows, say) is an insertion.
public final class PersistentHistoryChange: @unchecked Sendable, CustomStringConvertible {
    /// The change's number in the store's history: it increases with every change recorded.
    public let changeID: Int64
    /// What happened to the object.
    public let changeType: PersistentHistoryChangeType
    /// The object that changed. For a deletion, the object no longer exists: use the ID to remove it from what you
    /// show, or the ``tombstone`` to know what it was.
    public let changedObjectID: ManagedObjectID
    /// For an update: the properties whose stored values changed — attributes and to-one relationships (as the row
    /// holds them: set to the value it had, a property has not changed), and the to-many relationships a save
    /// changed. `nil` for an insertion or deletion.
    ///
    /// A child of an ordered relationship whose place in it changed is updated with no property of its own (the
    /// change is its parent's relationship). A batch delete's nullify rule reports the to-one relationships it
    /// cleared, not the to-many lists it shortened. What Core Data lists in these cases is undocumented.
    public let updatedProperties: Set<PropertyDescription>?
    /// For a deletion: the deleted object's values of the attributes marked
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, by attribute name (values that were nil are left
    /// out; a transformable attribute's value is its stored `Data`). `nil` for other changes, and for a deletion of
    /// an entity with no such attribute.
    public let tombstone: [AnyHashable: Any]?
    /// The transaction the change belongs to (`nil` when the change was fetched with
    /// ``PersistentHistoryResultType/changesOnly``).
    public private(set) weak var transaction: PersistentHistoryTransaction?

    init(_ change: StoreHistoryAnswer.Change) {
        changeID = change.id
        changeType = PersistentHistoryChangeType(rawValue: change.kind) ?? .update
        changedObjectID = change.objectID
        updatedProperties = change.updatedProperties.map { Set($0.map { change.entity.properties[$0] }) }
        tombstone = change.tombstone.map { values in
            var tombstone: [AnyHashable: Any] = [:]
            for (name, value) in values { tombstone[name] = value.anyValue }
            return tombstone
        }
    }

    /// The entity of changes, for a fetch request that narrows a history request to some changes
    /// (``PersistentHistoryChangeRequest/fetchRequest``): its attributes are `changedEntity` (compared with an
    /// ``EntityDescription``), `changedObjectID` (compared with a ``ManagedObjectID``), `changedID` (the object's key
    /// in its table) and `changeType` (a ``PersistentHistoryChangeType`` raw value). Apple lists no keys; a change's
    /// transaction, tombstone and updated properties are not among these.
    public static var entityDescription: EntityDescription? { PersistentHistoryModel.changeEntity }

    /// The entity of changes (``entityDescription``); every context's is the same. Apple's sessions make a change
    /// request from it:
    ///
    /// ```swift
    /// let changes = FetchRequest<any FetchRequestResult>()
    /// changes.entity = PersistentHistoryChange.entityDescription(with: context)
    /// changes.predicate = FetchPredicate(format: "changedEntity == %@", Expense.entity())
    /// request.fetchRequest = changes
    /// ```
    public static func entityDescription(with context: ManagedObjectContext) -> EntityDescription? { entityDescription }

    /// A new fetch request on the change entity (``entityDescription``). Typed as Core Data's: optional, and of
    /// `any FetchRequestResult` (run it through a history request, not a context's `fetch(_:)`); it is never `nil`
    /// here.
    public static var fetchRequest: FetchRequest<any FetchRequestResult>? {
        let request = FetchRequest<any FetchRequestResult>()
        request.entity = PersistentHistoryModel.changeEntity
        return request
    }

    /// Links the change to its transaction, once, when the transaction is made.
    func attach(to transaction: PersistentHistoryTransaction) {
        self.transaction = transaction
    }

    /// The change, its object and (for an update) the names of its changed properties.
    public var description: String {
        var text = "<PersistentHistoryChange \(changeID) \(changeType) \(changedObjectID)"
        if let updatedProperties { text += " [\(updatedProperties.map(\.name).sorted().joined(separator: ", "))]" }
        return text + ">"
    }
}
