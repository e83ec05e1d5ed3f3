import Foundation
import KataSupport
import Persistence

/// Lesson 3's model, written in code with Core Data's API: the entities `Group` and `Item` for the given classes
/// ``Group`` and ``Item``.
///
/// Lesson 3, katas 1–2 and 6–7. Check with `swift run lessons check 3`.
public enum GroupModel {
    /// The model's name, as a container knows it.
    public static let name = "Groups"

    /// A new instance of the model, made from `EntityDescription()`, `AttributeDescription()` and
    /// `RelationshipDescription()` with their fields set, as Core Data builds a model in code:
    ///
    /// - `Group`: `name` (string) and `createdAt` (date), both mandatory; `items`, an ordered to-many relationship
    ///   to `Item` whose inverse is `group`. Deleting a group deletes its items.
    /// - `Item`: `title` (string, mandatory), `note` (string, optional); `group`, a to-one relationship back to
    ///   `Group`. Deleting an item leaves its group alone and only takes the item out of it.
    public static func make() throws -> ManagedObjectModel {
        throw KataNotDone(lesson: 3)
    }
}
