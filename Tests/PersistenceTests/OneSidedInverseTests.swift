import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) import Persistence
import XCTest

/// A relationship whose inverse does not point back (`Owner.items` names `Item.owner`, which names no inverse):
/// Core Data loads such a model, and each side keeps only its own inverse up to date.
final class OneSidedInverseTests: PersistenceTestCase {
    private static func model(itemsRule: DeleteRule = .nullifyDeleteRule) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Owner", properties: [
                .attribute("name", .string),
                .toMany("items", "Item", inverse: "owner", deleteRule: itemsRule),
            ]),
            EntityDescription(name: "Item", properties: [
                .attribute("title", .string),
                .toOne("owner", "Owner", inverse: nil),
            ]),
        ])
    }

    override func makeModel() throws -> ManagedObjectModel { try Self.model() }

    private func insert(_ entity: String, _ key: String, _ value: String, into context: ManagedObjectContext) -> ManagedObject {
        let object = EntityDescription.insertNewObject(forEntityName: entity, into: context)
        object.setValue(value, forKey: key)
        return object
    }

    private func items(of owner: ManagedObject) -> [String] {
        ((owner.value(forKey: "items") as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: "title") as? String }.sorted()
    }

    private func owner(of item: ManagedObject) -> String? {
        (item.value(forKey: "owner") as? ManagedObject)?.value(forKey: "name") as? String
    }

    func testTheModelLoadsWithXcodesWarning() throws {
        let model = try Self.model()
        XCTAssertEqual(model.warnings, ["Owner.items -- inverse relationship Item.owner does not point back: it has no inverse. Changing Owner.items updates Item.owner, but not the other way round."])
        let items = try XCTUnwrap(model.entitiesByName["Owner"]?.relationshipsByName["items"])
        XCTAssertTrue(items.inverseRelationship === model.entitiesByName["Item"]?.relationshipsByName["owner"])
        XCTAssertNil(model.entitiesByName["Item"]?.relationshipsByName["owner"]?.inverseRelationship)
    }

    func testSettingTheToManySetsTheToOneButNotTheOtherWayRound() {
        let ann = insert("Owner", "name", "Ann", into: context)
        let cup = insert("Item", "title", "cup", into: context)
        let pen = insert("Item", "title", "pen", into: context)
        ann.setValue(Set([cup]), forKey: "items")
        XCTAssertEqual(owner(of: cup), "Ann", "Owner.items names Item.owner, so adding sets it")
        pen.setValue(ann, forKey: "owner")
        XCTAssertEqual(items(of: ann), ["cup"], "Item.owner names no inverse, so setting it leaves Owner.items as it was")
        ann.setValue(Set<ManagedObject>(), forKey: "items")
        XCTAssertNil(owner(of: cup), "removing from Owner.items clears Item.owner")
        XCTAssertEqual(owner(of: pen), "Ann", "an object never in Owner.items keeps its owner")
    }

    func testASaveRoundTripReadsTheToManyThroughTheToOnesColumn() throws {
        let url = try temporaryFolder().appendingPathComponent("store.sqlite")
        do {
            let writer = try makeContainer(url: url, model: try Self.model())
            let ann = insert("Owner", "name", "Ann", into: writer.viewContext)
            let bob = insert("Owner", "name", "Bob", into: writer.viewContext)
            let cup = insert("Item", "title", "cup", into: writer.viewContext)
            let pen = insert("Item", "title", "pen", into: writer.viewContext)
            _ = insert("Item", "title", "mug", into: writer.viewContext)
            ann.setValue(Set([cup]), forKey: "items")
            pen.setValue(bob, forKey: "owner")
            XCTAssertEqual(items(of: bob), [], "in memory, before the save")
            try writer.viewContext.save()
        }
        let reader = try makeContainer(url: url, model: try Self.model())
        let owners = try reader.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Owner"))
            .sorted { ($0.value(forKey: "name") as? String ?? "") < ($1.value(forKey: "name") as? String ?? "") }
        XCTAssertEqual(owners.map { $0.value(forKey: "name") as? String }, ["Ann", "Bob"])
        XCTAssertEqual(owners.map(items(of:)), [["cup"], ["pen"]], "the store keeps one answer: the items whose owner is the object")
        let all = try reader.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: all.map { ($0.value(forKey: "title") as! String, owner(of: $0) ?? "-") }),
                       ["cup": "Ann", "pen": "Bob", "mug": "-"])
    }

    func testAnOrderedToManyKeepsItsOrderThroughTheToOnesColumn() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Group", properties: [.toMany("items", "Item", inverse: "group", ordered: true)]),
            EntityDescription(name: "Item", properties: [.attribute("title", .string), .toOne("group", "Group", inverse: nil)]),
        ])
        let url = try temporaryFolder().appendingPathComponent("store.sqlite")
        do {
            let writer = try makeContainer(url: url, model: model)
            let group = EntityDescription.insertNewObject(forEntityName: "Group", into: writer.viewContext)
            let items = ["c", "a", "b"].map { insert("Item", "title", $0, into: writer.viewContext) }
            group.setValue(items, forKey: "items")
            XCTAssertTrue(items.allSatisfy { $0.value(forKey: "group") as? ManagedObject === group })
            try writer.viewContext.save()
            group.setValue([items[2], items[0]], forKey: "items")
            XCTAssertNil(items[1].value(forKey: "group"), "removed from the ordered list, so its group is cleared")
            try writer.viewContext.save()
        }
        let reader = try makeContainer(url: url, model: try ManagedObjectModel(entities: [
            EntityDescription(name: "Group", properties: [.toMany("items", "Item", inverse: "group", ordered: true)]),
            EntityDescription(name: "Item", properties: [.attribute("title", .string), .toOne("group", "Group", inverse: nil)]),
        ]))
        let group = try XCTUnwrap(reader.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Group")).first)
        let read = try XCTUnwrap(group.value(forKey: "items") as? [ManagedObject])
        XCTAssertEqual(read.map { $0.value(forKey: "title") as? String }, ["b", "c"])
    }

    func testAToManyInverseThatDoesNotPointBackKeepsItsOwnLinks() throws {
        // Tag.entries names Entry.tags, which names none: each keeps its own links, so what one side writes never
        // replaces what the other wrote.
        func model() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(name: "Entry", properties: [.attribute("text", .string), .toMany("tags", "Tag", inverse: nil)]),
                EntityDescription(name: "Tag", properties: [.attribute("label", .string), .toMany("entries", "Entry", inverse: "tags")]),
            ])
        }
        let url = try temporaryFolder().appendingPathComponent("store.sqlite")
        do {
            let writer = try makeContainer(url: url, model: try model())
            let context = writer.viewContext
            let rent = insert("Entry", "text", "rent", into: context)
            let food = insert("Entry", "text", "food", into: context)
            let home = insert("Tag", "label", "home", into: context)
            rent.setValue(Set([home]), forKey: "tags")
            XCTAssertEqual(names(home.value(forKey: "entries"), "text"), [], "Entry.tags names no inverse")
            try context.save()
            home.setValue(Set([food]), forKey: "entries")
            XCTAssertEqual(names(food.value(forKey: "tags"), "label"), ["home"], "Tag.entries names Entry.tags")
            try context.save()
        }
        let reader = try makeContainer(url: url, model: try model())
        let entries = try reader.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Entry"))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: entries.map { ($0.value(forKey: "text") as! String, names($0.value(forKey: "tags"), "label")) }),
                       ["rent": ["home"], "food": ["home"]])
        let tags = try reader.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Tag"))
        XCTAssertEqual(tags.map { names($0.value(forKey: "entries"), "text") }, [["food"]])
    }

    private func names(_ value: Any?, _ key: String) -> [String] {
        ((value as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: key) as? String }.sorted()
    }

    func testDeletingTheOwnerNullifiesTheItemsItHolds() throws {
        let ann = insert("Owner", "name", "Ann", into: context)
        let cup = insert("Item", "title", "cup", into: context)
        ann.setValue(Set([cup]), forKey: "items")
        try context.save()
        context.delete(ann)
        context.processPendingChanges()
        XCTAssertNil(owner(of: cup), "nullify goes through Owner.items' inverse, Item.owner")
        XCTAssertFalse(cup.isDeleted)
        try context.save()
        context.reset()
        let items = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
        XCTAssertEqual(items.map(owner(of:)), [nil])
    }

    func testDeletingTheOwnerCascadesToTheItemsItHolds() throws {
        let container = try makeContainer(model: try Self.model(itemsRule: .cascadeDeleteRule))
        let context = container.viewContext
        let ann = insert("Owner", "name", "Ann", into: context)
        let cup = insert("Item", "title", "cup", into: context)
        let pen = insert("Item", "title", "pen", into: context)
        ann.setValue(Set([cup, pen]), forKey: "items")
        try context.save()
        context.delete(ann)
        context.processPendingChanges()
        XCTAssertTrue(cup.isDeleted && pen.isDeleted)
        try context.save()
        XCTAssertEqual(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")), 0)
    }

    func testDeletingAnItemLeavesItsOwnerUnchanged() throws {
        // Item.owner names no inverse, so nothing on the owner's side is told: the owner is not updated, the stale
        // graph Apple warns of for a relationship without an inverse.
        let ann = insert("Owner", "name", "Ann", into: context)
        let cup = insert("Item", "title", "cup", into: context)
        ann.setValue(Set([cup]), forKey: "items")
        try context.save()
        context.delete(cup)
        context.processPendingChanges()
        XCTAssertFalse(ann.isUpdated, "the owner is not touched")
        try context.save()
        context.reset()
        let owners = try context.fetch(FetchRequest<ManagedObject>(entityName: "Owner"))
        XCTAssertEqual(owners.map(items(of:)), [[]], "the deleted row is gone from the store")
    }

    func testAModelFileWithOneSidedInversesLoadsWithWarnings() throws {
        let model = try ManagedObjectModel(contentsOf: try ModelFixtures.url("Ledger.xcdatamodeld/Ledger.xcdatamodel"), managedObjectClasses: [])
        let warnings = model.warnings.filter { $0.contains("does not point back") }
        XCTAssertEqual(warnings, [
            "Account.entries -- inverse relationship Entry.account does not point back: it has no inverse. Changing Account.entries updates Entry.account, but not the other way round.",
            "Entry.tags -- inverse relationship Tag.entries does not point back: it has no inverse. Changing Entry.tags updates Tag.entries, but not the other way round.",
        ], "\(model.warnings)")
    }
}
