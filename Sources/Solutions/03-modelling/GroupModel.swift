import Foundation
import KataSupport
import Persistence

/// Lesson 3's model in code: groups that own an ordered list of items.
///
/// On Apple platforms this is what an `.xcdatamodeld` file describes and Xcode compiles into a `.momd`; in code it
/// is made the way Core Data builds one, from entity, attribute and relationship descriptions.
public enum GroupModel {
    public static let name = "Groups"

    // region: model
    /// A new instance of the model. Relationships are declared from both ends, each naming the other as its
    /// inverse; the delete rule of each end says what deleting *this* object does to the other.
    public static func make() throws -> ManagedObjectModel {
        let group = EntityDescription()
        group.name = "Group"
        group.managedObjectClassName = NSStringFromClass(Group.self)
        let item = EntityDescription()
        item.name = "Item"
        item.managedObjectClassName = NSStringFromClass(Item.self)

        let items = RelationshipDescription()
        items.name = "items"
        items.destinationEntity = item
        items.maxCount = 0                          // to-many, no limit (a new relationship's default)
        items.isOrdered = true
        items.deleteRule = .cascadeDeleteRule       // top down: a group takes its items with it
        let groupOfItem = RelationshipDescription()
        groupOfItem.name = "group"
        groupOfItem.destinationEntity = group
        groupOfItem.maxCount = 1                    // to-one
        groupOfItem.deleteRule = .nullifyDeleteRule // not bottom up: an item only leaves its group
        items.inverseRelationship = groupOfItem
        groupOfItem.inverseRelationship = items

        group.properties = [attribute("name", .stringAttributeType, optional: false),
                            attribute("createdAt", .dateAttributeType, optional: false), items]
        item.properties = [attribute("title", .stringAttributeType, optional: false),
                           attribute("note", .stringAttributeType, optional: true), groupOfItem]
        let model = ManagedObjectModel()
        model.entities = [group, item]
        return model
    }

    /// An attribute of `type`, optional or not.
    private static func attribute(_ name: String, _ type: AttributeType, optional: Bool) -> AttributeDescription {
        let attribute = AttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }
    // endregion: model
}
