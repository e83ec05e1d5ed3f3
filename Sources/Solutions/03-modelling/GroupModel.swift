import KataSupport
import Persistence

/// Lesson 3's model in code: groups that own an ordered list of items.
///
/// On Apple platforms this is what an `.xcdatamodeld` file describes and Xcode compiles into a `.momd`; written in
/// code, the compiler checks the names of the classes, and the model checks every property against them.
public enum GroupModel {
    public static let name = "Groups"

    // region: model
    /// A new instance of the model. Relationships are declared from both ends, each naming the other as its
    /// inverse; the delete rule of each end says what deleting *this* object does to the other.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Group", managedObjectClass: Group.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("createdAt", .date, optional: false),
                // Top down: a group takes its items with it.
                .toMany("items", "Item", inverse: "group", ordered: true, deleteRule: .cascade),
            ]),
            EntityDescription(name: "Item", managedObjectClass: Item.self, properties: [
                .attribute("title", .string, optional: false),
                .attribute("note", .string),
                // Not bottom up: an item only leaves its group.
                .toOne("group", "Group", inverse: "items", deleteRule: .nullify),
            ]),
        ])
    }
    // endregion: model
}
