import KataSupport
import Persistence

/// Lesson 3's ``GroupModel`` with known mistakes (see `Decoy`).
public enum GroupModel {
    public static let name = "Groups"

    public static func make() throws -> ManagedObjectModel {
        // Mistake: deleting a group leaves its items behind, each pointing at nothing.
        let groupRule: DeleteRule = Decoy.isActive("items-outlive-group") ? .nullify : .cascade
        // Mistake: cascading bottom up, so deleting one item deletes its whole group.
        // Mistake: no action, so a deleted item stays in its group's list, a dangling reference.
        let itemRule: DeleteRule = Decoy.isActive("item-delete-cascades") ? .cascade
            : Decoy.isActive("item-delete-no-action") ? .noAction : .nullify
        // Mistake: the title is optional, so an item without one is saved.
        let titleOptional = Decoy.isActive("optional-title")
        // Mistake: the items are kept as an unordered set, so the order they were put in is lost.
        let ordered = !Decoy.isActive("items-unordered")
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Group", managedObjectClass: Group.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("createdAt", .date, optional: false),
                .toMany("items", "Item", inverse: "group", ordered: ordered, deleteRule: groupRule),
            ]),
            EntityDescription(name: "Item", managedObjectClass: Item.self, properties: [
                .attribute("title", .string, optional: titleOptional),
                .attribute("note", .string),
                .toOne("group", "Group", inverse: "items", deleteRule: itemRule),
            ]),
        ])
    }
}
