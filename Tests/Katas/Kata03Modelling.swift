import Foundation
import KataSupport
@_spi(TestHarness) import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 3 — Modelling. Katas 1–2: the model's entities and attributes; 3–5: building an ordered group and
/// keeping its order through a save; 6–7: delete rules, top down and bottom up.
final class Kata03Modelling: KataCase {
    override class var lesson: Int { 3 }
    override class var folder: String { "03-modelling" }
    // The katas make their own containers with the model you write; the base's store is not used.
    override class func makeModel() throws -> ManagedObjectModel { try BookshelfModel.shared() }

    /// A loaded in-memory container for ``GroupModel``, and its main context.
    private func groupStore() throws -> (container: PersistentContainer, context: ManagedObjectContext) {
        let container = try Self.makeInMemoryContainer(model: try GroupModel.make())
        return (container, container.viewContext)
    }

    /// What the store holds, read through a new context so nothing registered in the writer can answer instead:
    /// each group's name with its items' titles in order, sorted by name.
    private func stored(in container: PersistentContainer) throws -> [String: [String]] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            var result: [String: [String]] = [:]
            for group in try reader.fetch(Group.fetchRequest()) { result[group.name] = group.itemList.map(\.title) }
            return result
        }
    }

    /// A saved group "Errands" with three items, made without the learner's helpers.
    private func savedErrands(in context: ManagedObjectContext) throws -> Group {
        let group = Group(context: context)
        group.name = "Errands"
        group.createdAt = Date()
        for title in ["Bread", "Stamps", "Batteries"] {
            let item = Item(context: context)
            item.title = title
            item.group = group
        }
        try expect(group.itemList.count == 3, "setting each item's group left the group's list at "
            + "\(group.itemList.map(\.title)): only an Item.group that names Group.items as its inverse adds the item "
            + "to the group.")
        try context.save()
        return group
    }

    // MARK: The model

    func test01_modelDeclaresGroupAndItem() {
        kata(1, in: "GroupModel.swift", "make()") {
            let model = try GroupModel.make()
            let names = model.entities.compactMap(\.name).sorted()
            try expect(names == ["Group", "Item"], "the model's entities are \(names); expected [\"Group\", \"Item\"].")
            try expect(model.entitiesByName["Group"]?.managedObjectClass == Group.self
                       && model.entitiesByName["Item"]?.managedObjectClass == Item.self,
                       "the entities must use the given classes: set each entity's managedObjectClassName to "
                        + "NSStringFromClass(Group.self) and NSStringFromClass(Item.self).")
            let items = try require(model.entitiesByName["Group"]?.relationshipsByName["items"],
                                    "Group has no relationship called \"items\".")
            try expect(items.isToMany && items.isOrdered, "Group.items is \(items); it must be an ordered to-many "
                + "relationship (maxCount 0, isOrdered true), so that the items keep the order they were put in.")
            try expect(items.destinationEntity?.name == "Item" && items.inverseRelationship?.name == "group",
                       "Group.items must have Item as its destinationEntity and Item.group as its inverseRelationship; "
                        + "it is \(items).")
            let group = try require(model.entitiesByName["Item"]?.relationshipsByName["group"],
                                    "Item has no relationship called \"group\".")
            try expect(!group.isToMany, "Item.group is \(group): a new relationship is to-many until its maxCount "
                + "is 1, and an item belongs to one group.")
            try expect(group.inverseRelationship?.name == "items", "Item.group names no inverse; it is \(group). "
                + "Set inverseRelationship on both ends, each to the other.")
            var loadError: (any Error)?
            do { _ = try groupStore() } catch { loadError = error }
            try expect(loadError == nil, "a container could not load a store with the model: \(loadError.map { "\($0)" } ?? "").")
        }
    }

    func test02_mandatoryAttributesAreEnforcedAtSave() {
        kata(2, in: "GroupModel.swift", "make()") {
            let model = try GroupModel.make()
            for (entity, attribute, optional) in [("Group", "name", false), ("Group", "createdAt", false),
                                                  ("Item", "title", false), ("Item", "note", true)] {
                let description = try require(model.entitiesByName[entity]?.attributesByName[attribute],
                                              "\(entity) has no attribute called \"\(attribute)\".")
                try expect(description.isOptional == optional, "\(entity).\(attribute) is "
                    + (description.isOptional ? "optional" : "mandatory") + "; it should be "
                    + (optional ? "optional" : "mandatory (isOptional = false)") + ".")
            }
            let (container, context) = try groupStore()
            let group = Group(context: context)
            group.name = "Errands"
            group.createdAt = Date()
            let item = Item(context: context)
            item.group = group            // no title
            let error = try expectError(CocoaError.self, "saving an item without a title must fail: "
                + "title is mandatory.") { try context.save() }
            try expect(error.code == .validationMissingMandatoryProperty && error.validationKey == "title",
                       "saving an item without a title failed with \(error.code.rawValue) on \(error.validationKey ?? "no key"); "
                        + "expected 1570 (missing mandatory property) on \"title\".")
            item.title = "Bread"          // a note is optional: none is fine
            try context.save()

            // No note is no note: read back through a context that has never seen the item.
            let blank = container.newBackgroundContext()
            let missing = try blank.performAndWait { try blank.fetch(Item.fetchRequest()).first.map { $0.note } }
            try expect(missing == .some(nil), "an item saved without a note reads back with the note "
                + "\(missing.map { $0.map { "\"\($0)\"" } ?? "nil" } ?? "(no item at all)") through another context, "
                + "not nil. Item.note is a String?: nil is how the app knows the user wrote nothing. A default value "
                + "fills every new item's note, so an empty note and no note look alike, and a screen that shows a "
                + "note when there is one shows a blank one on every item.")

            // A note is kept, as a user writes it: read back through a context that has never seen the item.
            let written = "Zoë's loaf — the crème fraîche one"
            item.note = written
            try context.save()
            let reader = container.newBackgroundContext()
            let read = try reader.performAndWait { try reader.fetch(Item.fetchRequest()).first?.note }
            try expect(read == written, "a note saved with an item reads back as \(read.map { "\"\($0)\"" } ?? "nil") "
                + "through another context, not \"\(written)\": the store did not keep it. Optional means a value may "
                + "be missing, not that it is kept in memory only (a transient attribute is never written to the "
                + "store); a note the user wrote must be there at the next launch.")
        }
    }

    // MARK: An ordered group

    func test03_insertBuildsAnOrderedGroup() {
        kata(3, in: "Group+Items.swift", "insert(named:titles:into:)") {
            let (_, context) = try groupStore()
            let before = Date()
            let group = try Group.insert(named: "Errands", titles: ["Bread", "Stamps", "Batteries"], into: context)
            let after = Date()
            try expect(group.name == "Errands", "the group is called \"\(group.name)\", not \"Errands\".")
            let titles = group.itemList.map(\.title)
            try expect(titles == ["Bread", "Stamps", "Batteries"], "the group's items are \(titles); expected "
                + "[\"Bread\", \"Stamps\", \"Batteries\"], in that order: make one item per title and put them in "
                + "the group's items.")
            try expect(group.itemList.allSatisfy { $0.group === group }, "an item's group is not the group that holds "
                + "it; with the inverse declared in the model, setting one side sets the other.")
            try expect(group.createdAt <= after, "createdAt is \(group.createdAt), later than the call that made the "
                + "group: it should say when the group was made.")
            try expect(group.createdAt >= before, "createdAt is \(group.createdAt), earlier than the call that made "
                + "the group (\(before)): the group carries a date fixed before it existed. A default value in the "
                + "model is worked out once, when the model is made — on a device, when the app starts — so every "
                + "group made that day would share it.")
            try expect(context.insertedObjects.count == 4, "the context holds \(context.insertedObjects.count) new "
                + "objects; expected 4 (the group and its three items).")
        }
    }

    func test04_orderSurvivesSaveAndRefetch() {
        kata(4, in: "Group+Items.swift", "insert(named:titles:into:)") {
            let (container, context) = try groupStore()
            // Not alphabetical, on purpose; and a list people write has the same thing on it twice.
            let titles = ["Zinc", "Kid's shoes", "crème fraîche", "Apples", "Zinc"]
            try Group.insert(named: "Shopping", titles: titles, into: context)
            try context.save()
            let stored = try stored(in: container)
            try expect(stored == ["Shopping": titles], "after a save, a fresh context reads \(stored); expected "
                + "[\"Shopping\": \(titles)]. An ordered relationship keeps the order it was given, and two items "
                + "with the same title are still two items: one per title given, duplicates included.")
        }
    }

    func test05_movedItemStaysMovedAfterSave() {
        kata(5, in: "Group+Items.swift", "moveItem(at:to:)") {
            let (container, context) = try groupStore()
            let group = try savedErrands(in: context)
            let extra = Item(context: context)
            extra.title = "Tea"
            extra.group = group                               // [Bread, Stamps, Batteries, Tea]
            let held = group.itemList                          // what a screen showing the list holds
            try expect(held.count == 4, "setting extra.group left the group's list at \(held.map(\.title)): only an "
                + "Item.group that names Group.items as its inverse adds the item to the group.")
            try group.moveItem(at: 0, to: 2)
            let expected = ["Stamps", "Batteries", "Bread", "Tea"]
            let titles = group.itemList.map(\.title)
            try expect(titles == expected, "moving item 0 to 2 in [Bread, Stamps, Batteries, Tea] gave \(titles); "
                + "expected \(expected): take the item out, then insert it at the new index.")
            let same = [held[1], held[2], held[0], held[3]]
            let replaced = zip(group.itemList, same).filter { $0 !== $1 }.count
            try expect(replaced == 0 && !held.contains(where: \.isDeleted), "after moving an item the titles are in "
                + "the right order, but \(replaced) of the group's 4 items are new objects"
                + (held.contains(where: \.isDeleted) ? " and the old ones are deleted" : "") + ": the list was "
                + "rebuilt instead of reordered. A caller holding an item (a screen showing it) must still hold the "
                + "group's item afterwards; reorder the items the group already has.")
            try expect(extra.isInserted && context.insertedObjects.contains(extra), "moveItem(at:to:) saved the "
                + "context: \"Tea\", which the caller had added and not saved, is saved now. A move only reorders; on "
                + "a device it would commit whatever else the user had half done in that context, which the caller "
                + "could then no longer roll back.")
            try group.moveItem(at: 3, to: 1)                 // towards the top of the list
            let upwards = ["Stamps", "Tea", "Batteries", "Bread"]
            let moved = group.itemList.map(\.title)
            try expect(moved == upwards, "moving item 3 to 1 in \(expected) gave \(moved); expected \(upwards). "
                + "A move towards the top of the list must work as well as one towards the bottom.")
            try context.save()
            let stored = try stored(in: container)["Errands"] ?? []
            try expect(stored == upwards, "after saving, a fresh context reads \(stored), not \(upwards).")

            // Indexes a user's list does not have: a stale row from a screen, an off-by-one destination.
            for (source, destination, bad) in [(7, 0, 7), (1, 4, 4), (-1, 2, -1)] {
                var thrown: (any Error)?
                do { try group.moveItem(at: source, to: destination) } catch { thrown = error }
                let after = group.itemList.map(\.title)
                let error = try require(thrown, "moveItem(at: \(source), to: \(destination)) on a list of 4 returned "
                    + "normally and left \(after): an index outside 0..<4 must throw ItemIndexOutOfRange, as its "
                    + "documentation says. Clamped or ignored, the user's move lands somewhere else or nowhere, and "
                    + "nothing tells the screen; unchecked, the array traps and the app stops.")
                try expect((error as? ItemIndexOutOfRange) == ItemIndexOutOfRange(index: bad, count: 4), "moveItem(at: "
                    + "\(source), to: \(destination)) on a list of 4 threw \(error); expected "
                    + "ItemIndexOutOfRange(index: \(bad), count: 4), naming the first index that is outside 0..<4.")
                try expect(after == upwards && !context.hasChanges, "moveItem(at: \(source), to: \(destination)) "
                    + "threw, but left the list at \(after)\(context.hasChanges ? " with unsaved changes" : ""): a move "
                    + "that throws changes nothing.")
            }
        }
    }

    // MARK: Delete rules

    func test06_deletingAGroupDeletesItsItems() {
        kata(6, in: "GroupModel.swift", "make()") {
            let (container, context) = try groupStore()
            let errands = try savedErrands(in: context)
            let other = Group(context: context)
            other.name = "Books"
            other.createdAt = Date()
            let dune = Item(context: context)
            dune.title = "Dune"
            dune.group = other
            try context.save()
            context.delete(errands)
            try context.save()
            let left = try storedValues(\Item.title, in: container)
            try expect(left == ["Dune"], "after deleting the group \"Errands\", the store still holds the items "
                + "\(left); expected only [\"Dune\"]. A group's delete rule for its items should cascade.")
        }
    }

    func test07_deletingAnItemKeepsItsGroup() {
        kata(7, in: "GroupModel.swift", "make()") {
            let (container, context) = try groupStore()
            let group = try savedErrands(in: context)
            context.delete(group.itemList[1])                // Stamps
            // The delete rules run when the context processes its pending changes (at the latest, at the save).
            context.processPendingChanges()
            let dangling = group.itemList.filter(\.isDeleted).count
            try expect(group.items.count == 2 && dangling == 0, "after deleting the item \"Stamps\" (and "
                + "processPendingChanges()), its group still lists \(group.items.count) items, \(dangling) of them "
                + "deleted: the item's delete rule for its group did nothing to the group. That is \"no action\", "
                + "which leaves the group pointing at a deleted item; nullify takes the item out of the group.")
            try context.save()
            let stored = try stored(in: container)
            try expect(stored == ["Errands": ["Bread", "Batteries"]], "after deleting the item \"Stamps\", a fresh "
                + "context reads \(stored); expected [\"Errands\": [\"Bread\", \"Batteries\"]]. An item's delete "
                + "rule for its group should nullify: the item leaves the group, the group stays.")
        }
    }

    // MARK: The model drawn in Xcode

    /// Runs `body` with the default store folder (`XDG_DATA_HOME`) pointed at a new empty folder, so that a store
    /// written to disk by mistake lands where the kata can see it, and not in the learner's home.
    private func withScratchDataFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kata03-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let previous = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
        setenv("XDG_DATA_HOME", folder.path, 1)
        defer {
            if let previous { setenv("XDG_DATA_HOME", previous, 1) } else { unsetenv("XDG_DATA_HOME") }
            try? FileManager.default.removeItem(at: folder)
        }
        try body(folder)
    }

    func test08_theDrawnModelLoadsByName() {
        kata(8, in: "GroupModel+File.swift", "containerFromModelFile(named:)") {
            try withScratchDataFolder { folder in
                let container = try GroupModel.containerFromModelFile()
                let names = container.managedObjectModel.entities.compactMap(\.name).sorted()
                try expect(names == ["Group", "Item"], "the container's model has the entities \(names); expected "
                    + "[\"Group\", \"Item\"], drawn in Groups.xcdatamodeld. Give PersistentContainer the model's name "
                    + "and the bundle that holds it: GroupModelFile.name and GroupModelFile.bundle.")
                // The file declares one thing the model in code does not: a fetch index on Item.title.
                let indexes = container.managedObjectModel.entitiesByName["Item"]?.indexes.map(\.name) ?? []
                try expect(indexes.contains("byTitle"), "the container's model has the right entities, but its Item "
                    + "has the indexes \(indexes), not the index byTitle that Groups.xcdatamodeld declares: the model "
                    + "was not read from the file. A model made in code and handed over beside the file works the same "
                    + "day, and the next change drawn in the file (an index, an attribute, a new version) never "
                    + "reaches the app, which opens its store with a model nobody edits any more.")
                let urls = container.persistentStoreCoordinator.persistentStores.compactMap(\.url?.path)
                let onDisk = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                try expect(urls == ["/dev/null"] && onDisk.isEmpty, "the loaded store is at \(urls), and the default "
                    + "store folder now holds \(onDisk). A store for tests belongs in memory: set the container's "
                    + "persistentStoreDescriptions to a description whose URL is /dev/null before "
                    + "loadPersistentStores, which opens the stores the descriptions name at the moment it runs.")
                let context = container.viewContext
                let group = Group(context: context)
                group.name = "Errands"
                group.createdAt = Date()
                for title in ["Bread", "Stamps"] {
                    let item = Item(context: context)
                    item.title = title
                    item.group = group
                }
                try context.save()
                let stored = try stored(in: container)
                try expect(stored == ["Errands": ["Bread", "Stamps"]], "a group saved through the container reads "
                    + "back as \(stored); expected [\"Errands\": [\"Bread\", \"Stamps\"]].")
            }
        }
    }

    func test09_aMissingModelIsAnErrorNotAnEmptyContainer() {
        kata(9, in: "GroupModel+File.swift", "containerFromModelFile(named:)") {
            try withScratchDataFolder { _ in
                var madeContainer: PersistentContainer?
                let error = try expectError(Error.self, "containerFromModelFile(named: \"Grops\") must throw: there is "
                    + "no Grops.xcdatamodeld. A container made by name with a wrong name logs \"Failed to load model named "
                    + "Grops\" and carries on with no entities, and its stores load without an error (what Core Data's "
                    + "load reports then is undocumented; Persistence reports nothing), so on a device the app crashes "
                    + "later, far from the typo.") {
                    madeContainer = try GroupModel.containerFromModelFile(named: "Grops")
                }
                _ = madeContainer
                let text = "\(error) \((error as NSError).localizedDescription)"
                try expect(text.contains("Grops"), "the error thrown says \"\(text)\", which does not name the missing "
                    + "model: whoever reads it should learn which name had no model file.")
            }
        }
    }
}

private extension Group {
    /// The items in order: the relationship's `NSOrderedSet`, read as items.
    var itemList: [Item] { items.compactMap { $0 as? Item } }
}
