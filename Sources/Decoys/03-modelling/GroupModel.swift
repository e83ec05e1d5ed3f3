import Foundation
import KataSupport
import Persistence

/// Lesson 3's ``GroupModel`` with known mistakes (see `Decoy`).
public enum GroupModel {
    public static let name = "Groups"

    public static func make() throws -> ManagedObjectModel {
        let group = EntityDescription()
        group.name = "Group"
        // Mistake: the class's bare name, without its module, which the runtime finds no class for.
        group.managedObjectClassName = Decoy.isActive("class-name-without-module") ? "Group" : NSStringFromClass(Group.self)
        let item = EntityDescription()
        item.name = "Item"
        item.managedObjectClassName = Decoy.isActive("class-name-without-module") ? "Item" : NSStringFromClass(Item.self)

        let items = RelationshipDescription()
        items.name = "items"
        items.destinationEntity = item
        // Mistake: the items are kept as an unordered set, so the order they were put in is lost.
        items.isOrdered = !Decoy.isActive("items-unordered")
        // Mistake: deleting a group leaves its items behind, each pointing at nothing.
        items.deleteRule = Decoy.isActive("items-outlive-group") ? .nullifyDeleteRule : .cascadeDeleteRule
        let groupOfItem = RelationshipDescription()
        groupOfItem.name = "group"
        groupOfItem.destinationEntity = group
        // Mistake: the maximum keeps a new relationship's 0, so the item's end is a to-many, not a to-one.
        if !Decoy.isActive("group-left-to-many") { groupOfItem.maxCount = 1 }
        // Mistake: cascading bottom up, so deleting one item deletes its whole group.
        // Mistake: no action, so a deleted item stays in its group's list, a dangling reference.
        groupOfItem.deleteRule = Decoy.isActive("item-delete-cascades") ? .cascadeDeleteRule
            : Decoy.isActive("item-delete-no-action") ? .noActionDeleteRule : .nullifyDeleteRule
        items.inverseRelationship = groupOfItem
        // Mistake: the inverse is set on one end only, so the item's end names none.
        if !Decoy.isActive("inverse-set-on-one-side") { groupOfItem.inverseRelationship = items }

        let createdAt = attribute("createdAt", .dateAttributeType, optional: false)
        // Mistake: a default date, worked out once, when the model is made; every group made later starts with it.
        if Decoy.isActive("created-at-model-default") { createdAt.defaultValue = Date() }
        group.properties = [attribute("name", .stringAttributeType, optional: false), createdAt, items]
        // Mistake: the title is optional, so an item without one is saved.
        let title = attribute("title", .stringAttributeType, optional: Decoy.isActive("optional-title"))
        // Mistake: an empty default title, so the mandatory title is never missing and an untitled item is saved.
        if Decoy.isActive("title-default-empty") { title.defaultValue = "" }
        let note = attribute("note", .stringAttributeType, optional: true)
        // Mistake: an empty default note, "so the screen never shows nil": every item saved without a note reads ""
        // back, and an empty note can no longer be told from no note.
        if Decoy.isActive("note-default-empty") { note.defaultValue = "" }
        // Mistake: the note is marked transient, taken for "may be left empty": it is kept in memory only, and every
        // note is gone once the item is read back from the store.
        if Decoy.isActive("note-transient") { note.isTransient = true }
        item.properties = [title, note, groupOfItem]
        let model = ManagedObjectModel()
        model.entities = [group, item]
        return model
    }

    private static func attribute(_ name: String, _ type: AttributeType, optional: Bool) -> AttributeDescription {
        let attribute = AttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }
}
