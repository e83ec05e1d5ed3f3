import Persistence

/// One entry of a ``Group``: the other entity of lesson 3's model.
public final class Item: ManagedObject {
    /// Mandatory: an item without a title cannot be saved.
    @Managed public var title: String
    /// Optional: most items have no note.
    @Managed public var note: String?
    /// The group the item belongs to: the inverse of ``Group/items``.
    @Managed public var group: Group?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Item> {
        FetchRequest<Item>(entityName: "Item")
    }
}
