import Foundation
import Persistence

/// A named group that keeps its items in order: one of the two entities of lesson 3's model, which you write in
/// `GroupModel.make()`. The class is given; the model decides what each property means to the store.
public final class Group: ManagedObject {
    /// Mandatory: a group without a name cannot be saved.
    @Managed public var name: String
    /// Mandatory: when the group was made.
    @Managed public var createdAt: Date
    /// The group's items, in the order the user put them: an *ordered* to-many relationship, which Core Data hands
    /// over as an `NSOrderedSet` (each item once, in order; `items.array as! [Item]` reads them as items).
    @Managed public var items: NSOrderedSet

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Group> {
        FetchRequest<Group>(entityName: "Group")
    }
}
