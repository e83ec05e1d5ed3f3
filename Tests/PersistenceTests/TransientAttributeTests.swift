import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(PredicateCompounds) @_spi(PredicateParsing) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Transient attributes, as Core Data has them: declared in the model, kept in the object's memory only. The store
/// has no column for them, every object read from it starts with the default value, and setting one is a change
/// that saves, validates and rolls back like any other while writing nothing.
final class TransientAttributeTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try SketchbookModel.make() }

    // MARK: - Helpers

    @discardableResult
    private func makeSketch(_ title: String, in context: ManagedObjectContext? = nil) -> Sketch {
        let sketch = Sketch(context: context ?? self.context)
        sketch.title = title
        return sketch
    }

    /// The column names of `table`, as SQLite describes the table.
    private func columns(of table: String, in container: PersistentContainer? = nil) throws -> [String] {
        try storeRows("PRAGMA table_info(\(table))", in: container).compactMap { row in
            if case .text(let name) = row[1] { name } else { nil }
        }
    }

    /// Runs `body` on the sketch `id` as a fresh context reads it from the store.
    private func reread<T>(_ id: ManagedObjectID, in container: PersistentContainer? = nil,
                           _ body: (Sketch) throws -> T) throws -> T {
        let reader = (container ?? self.container).newBackgroundContext()
        return try reader.performAndWait {
            try body(try XCTUnwrap(reader.existingObject(with: id) as? Sketch))
        }
    }

    /// The row version (`Z_OPT`) of sketch `id`: Sketch and its subentity Storyboard share the table ZSKETCH.
    private func version(of id: ManagedObjectID, in container: PersistentContainer? = nil) throws -> Int64? {
        try storeInteger("SELECT Z_OPT FROM ZSKETCH WHERE Z_PK = \(try XCTUnwrap(id.primaryKey))", in: container)
    }

    /// Changes the stored title of sketch `id` from another context, as another part of an app would.
    private func retitleElsewhere(_ id: ManagedObjectID, _ title: String) throws {
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let sketch = try XCTUnwrap(other.existingObject(with: id) as? Sketch)
            sketch.title = title
            try other.save()
        }
    }

    /// Observes `name` from `context` until the test ends.
    private func observe(_ name: Notification.Name, from context: ManagedObjectContext) -> NotificationLog {
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { log.append($0, flag: true) }
        addTeardownBlock { NotificationCenter.default.removeObserver(token) }
        return log
    }

    // MARK: - The model

    func testTheFlagIsDeclaredInCodeAndAttributesAreStoredByDefault() throws {
        let model = try SketchbookModel.make()
        let sketch = try XCTUnwrap(model.entitiesByName["Sketch"])
        XCTAssertEqual(sketch.attributesByName["isSelected"]?.isTransient, true)
        XCTAssertEqual(sketch.attributesByName["zoom"]?.persistentDefaultValue, .double(1))
        XCTAssertEqual(sketch.attributesByName["title"]?.isTransient, false)
        XCTAssertFalse(AttributeDescription(name: "title", type: .string).isTransient, "stored unless declared transient")
        let storyboard = try XCTUnwrap(model.entitiesByName["Storyboard"])
        XCTAssertEqual(storyboard.attributesByName["isSelected"]?.isTransient, true, "inherited from Sketch")
        XCTAssertEqual(storyboard.attributesByName["openPage"]?.isTransient, true)
        XCTAssertTrue(sketch.description.contains("transient isSelected: boolean"), sketch.description)
    }

    func testConstraintsAndIndexesCannotNameATransientAttribute() throws {
        let constrained = assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(entities: [EntityDescription(name: "Sketch", properties: [
                .attribute("title", .string), .attribute("isSelected", .boolean, transient: true),
            ], uniquenessConstraints: [["title", "isSelected"]])])
        }
        XCTAssertEqual(constrained?.key, "isSelected")
        XCTAssertTrue(constrained?.message.contains("names 'isSelected', which is transient") == true, constrained?.message ?? "")
        let indexed = assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(entities: [EntityDescription(name: "Sketch", properties: [
                .attribute("zoom", .double, transient: true),
            ], indexes: [FetchIndexDescription(name: "byZoom", properties: ["zoom"])])])
        }
        XCTAssertEqual(indexed?.entityName, "Sketch")
        XCTAssertTrue(indexed?.message.contains("'zoom', which is transient and has no column") == true, indexed?.message ?? "")
    }

    // MARK: - Memory only

    func testATransientAttributeHasNoColumn() throws {
        let storyboard = Storyboard(context: context)
        storyboard.title = "Boards"
        storyboard.openPage = 3
        let swatch = Swatch(context: context)
        swatch.name = "Red"
        swatch.isPinned = true
        swatch.sketch = storyboard
        try context.save()
        // Sketch and Storyboard share the root's table; neither entity's transient attributes appear in it.
        XCTAssertEqual(try columns(of: "ZSKETCH"), ["Z_PK", "Z_OPT", "Z_ENT", "ZTITLE", "ZPAGES"])
        XCTAssertEqual(try columns(of: "ZSWATCH"), ["Z_PK", "Z_OPT", "ZNAME", "ZSKETCH"])
        XCTAssertEqual(try storeRows("SELECT * FROM ZSKETCH").first?.count, 5, "a row holds the stored values only")
    }

    func testNewObjectsStartWithTheDefaultAndValuesAreNeverStored() throws {
        let sketch = makeSketch("Cat")
        XCTAssertFalse(sketch.isSelected)
        XCTAssertEqual(sketch.zoom, 1)
        XCTAssertNil(sketch.caption)
        sketch.isSelected = true
        sketch.zoom = 2.5
        sketch.caption = "first try"
        try context.save()

        XCTAssertTrue(sketch.isSelected, "the saving context keeps the values in memory")
        XCTAssertEqual(sketch.zoom, 2.5)
        XCTAssertEqual(sketch.caption, "first try")
        try reread(sketch.objectID) { stored in
            XCTAssertEqual(stored.title, "Cat", "the stored attribute was saved")
            XCTAssertFalse(stored.isSelected, "a new context starts from the default")
            XCTAssertEqual(stored.zoom, 1)
            XCTAssertNil(stored.caption)
        }
    }

    func testFetchedObjectsAndFiredFaultsStartWithTheDefault() throws {
        let sketch = makeSketch("Cat")
        sketch.zoom = 3
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = FetchRequest<Sketch>(entityName: "Sketch")
            request.returnsObjectsAsFaults = false
            let fetched = try reader.fetch(request)
            XCTAssertEqual(fetched.map(\.zoom), [1])
        }
        let faulting = container.newBackgroundContext()
        faulting.performAndWait {
            let fault = faulting.object(with: sketch.objectID) as! Sketch
            XCTAssertTrue(fault.isFault)
            XCTAssertEqual(fault.zoom, 1)
            XCTAssertFalse(fault.isFault)
        }
        // Fetching again in the context that holds the object leaves its in-memory values alone.
        XCTAssertEqual(try context.fetch(FetchRequest<Sketch>(entityName: "Sketch")).first?.zoom, 3)
    }

    // MARK: - Changes

    func testSettingATransientAttributeIsAChangeThatWritesNothing() throws {
        let sketch = makeSketch("Cat")
        try context.save()
        let savedVersion = try version(of: sketch.objectID)
        let before = try storeSnapshot()
        let changes = observe(ManagedObjectContext.didChangeObjectsNotification, from: context)
        let saves = observe(ManagedObjectContext.didSaveObjectsNotification, from: context)

        sketch.isSelected = true
        XCTAssertTrue(sketch.hasChanges)
        XCTAssertTrue(sketch.isUpdated)
        XCTAssertTrue(context.hasChanges)
        XCTAssertEqual(context.updatedObjects, [sketch])
        XCTAssertEqual(sketch.changedValues()["isSelected"] as? Bool, true)
        XCTAssertFalse(sketch.hasPersistentChangedValues, "the store holds nothing that changed")
        context.processPendingChanges()
        XCTAssertEqual(changes.notes.last?.userInfo?["updated"] as? Set<ManagedObject>, [sketch])

        try context.save()
        XCTAssertFalse(sketch.hasChanges)
        XCTAssertFalse(context.hasChanges)
        XCTAssertTrue(sketch.isSelected)
        XCTAssertEqual(saves.notes.count, 1)
        XCTAssertEqual(saves.notes.first?.userInfo?["updated"] as? Set<ManagedObject>, [sketch])
        XCTAssertEqual(try storeSnapshot(), before, "nothing was written")
        XCTAssertEqual(try version(of: sketch.objectID), savedVersion, "no new row version for a transient change")
    }

    func testAChangeToBothKindsWritesOnlyTheStoredOne() throws {
        let sketch = makeSketch("Cat")
        try context.save()
        sketch.title = "Dog"
        sketch.zoom = 4
        XCTAssertTrue(sketch.hasPersistentChangedValues)
        try context.save()
        XCTAssertEqual(try version(of: sketch.objectID), 2)
        try reread(sketch.objectID) { stored in
            XCTAssertEqual(stored.title, "Dog")
            XCTAssertEqual(stored.zoom, 1)
        }
    }

    func testATransientChangeNeverConflictsWithTheStore() throws {
        context.mergePolicy = MergePolicy.error
        let sketch = makeSketch("Cat")
        try context.save()
        try retitleElsewhere(sketch.objectID, "Theirs")

        // The row changed under this context, but a transient change has nothing to check against it.
        sketch.isSelected = true
        try context.save()
        XCTAssertTrue(sketch.isSelected)
        XCTAssertEqual(try version(of: sketch.objectID), 2, "only the other save wrote the row")

        // A stored change still conflicts, and the conflict describes stored values only.
        sketch.title = "Mine"
        sketch.caption = "unsaved"
        let conflict = assertPersistenceError(.managedObjectMerge) { try context.save() }?.conflicts.first
        XCTAssertEqual(conflict?.objectSnapshot?["title"] as? String, "Mine")
        XCTAssertEqual(conflict?.persistedSnapshot?["title"] as? String, "Theirs")
        for snapshot in [conflict?.objectSnapshot, conflict?.cachedSnapshot, conflict?.persistedSnapshot] {
            XCTAssertEqual(snapshot?.keys.sorted(), ["title"], "transient attributes are not part of a conflict")
        }
    }

    func testMergePoliciesKeepTransientValuesAndNeverCompareThem() throws {
        for policy in [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback] {
            let sketch = makeSketch("Cat \(policy)")
            try context.save()
            try retitleElsewhere(sketch.objectID, "Theirs \(policy)")
            context.mergePolicy = policy
            sketch.title = "Mine \(policy)"
            sketch.zoom = 3
            try context.save()
            XCTAssertEqual(sketch.zoom, 3, "\(policy): the in-memory value stays")
            XCTAssertFalse(sketch.hasChanges, "\(policy)")
            // The object's version matches its row again: a later save under .error does not conflict.
            context.mergePolicy = MergePolicy.error
            sketch.title = "After \(policy)"
            XCTAssertNoThrow(try context.save(), "\(policy)")
            XCTAssertEqual(sketch.zoom, 3, "\(policy)")
        }
    }

    func testSavesAfterATransientOnlySaveDoNotConflict() throws {
        context.mergePolicy = MergePolicy.error
        let sketch = makeSketch("Cat")
        try context.save()
        for step in 1...3 {
            sketch.zoom = Double(step)
            try context.save()
            sketch.title = "Cat \(step)"
            try context.save()
        }
        XCTAssertEqual(try version(of: sketch.objectID), 4, "one version per stored change")
        XCTAssertEqual(try storedCount("Sketch", "title == 'Cat 3'"), 1)
    }

    func testRollbackRestoresTheLastCommittedValue() throws {
        let sketch = makeSketch("Cat")
        sketch.isSelected = true
        sketch.zoom = 2
        try context.save()
        sketch.isSelected = false
        sketch.zoom = 4
        sketch.caption = "scrap this"
        context.rollback()
        XCTAssertTrue(sketch.isSelected)
        XCTAssertEqual(sketch.zoom, 2)
        XCTAssertNil(sketch.caption)
        XCTAssertFalse(sketch.hasChanges)

        sketch.title = "Dog"
        sketch.zoom = 5
        context.rollback()
        XCTAssertEqual(sketch.title, "Cat")
        XCTAssertEqual(sketch.zoom, 2)
    }

    // MARK: - Refreshing

    func testRefreshWithMergingKeepsTransientValues() throws {
        let sketch = makeSketch("Cat")
        sketch.zoom = 2
        try context.save()
        try retitleElsewhere(sketch.objectID, "Theirs")

        // Unchanged since its save: the store's values arrive, the transient one stays.
        context.refresh(sketch, mergeChanges: true)
        XCTAssertEqual(sketch.title, "Theirs")
        XCTAssertEqual(sketch.zoom, 2)
        XCTAssertFalse(sketch.hasChanges)

        // With unsaved changes: they stay too, and the object takes the store's version.
        sketch.caption = "unsaved"
        sketch.isSelected = true
        try retitleElsewhere(sketch.objectID, "Theirs again")
        context.refresh(sketch, mergeChanges: true)
        XCTAssertEqual(sketch.title, "Theirs again")
        XCTAssertEqual(sketch.caption, "unsaved")
        XCTAssertTrue(sketch.isSelected)
        XCTAssertEqual(sketch.zoom, 2)
        XCTAssertTrue(sketch.hasChanges)
        context.mergePolicy = MergePolicy.error
        try context.save()

        // Rollback after a merge still goes back to the values committed in memory.
        sketch.zoom = 9
        try retitleElsewhere(sketch.objectID, "Theirs once more")
        context.refresh(sketch, mergeChanges: true)
        context.rollback()
        XCTAssertEqual(sketch.zoom, 2)
        XCTAssertEqual(sketch.title, "Theirs once more")

        context.refreshAllObjects()
        XCTAssertEqual(sketch.zoom, 2)
        XCTAssertEqual(sketch.caption, "unsaved")
    }

    func testRefreshWithoutMergingDiscardsTransientValues() throws {
        let sketch = makeSketch("Cat")
        sketch.isSelected = true
        try context.save()
        sketch.caption = "unsaved"
        context.refresh(sketch, mergeChanges: false)
        XCTAssertTrue(sketch.isFault)
        XCTAssertFalse(sketch.hasChanges)
        XCTAssertFalse(sketch.isSelected, "back to the default, like an object read from the store")
        XCTAssertNil(sketch.caption)
        XCTAssertEqual(sketch.zoom, 1)
        XCTAssertEqual(sketch.title, "Cat")
    }

    func testAMergedSaveOfAnotherContextKeepsTransientValues() throws {
        let sketch = makeSketch("Cat")
        sketch.zoom = 2
        try context.save()
        let other = container.newBackgroundContext()
        let saves = observe(ManagedObjectContext.didSaveObjectsNotification, from: other)
        try other.performAndWait {
            let copy = try XCTUnwrap(other.existingObject(with: sketch.objectID) as? Sketch)
            copy.title = "Theirs"
            try other.save()
        }
        context.mergeChanges(fromContextDidSave: try XCTUnwrap(saves.notes.first))
        XCTAssertEqual(sketch.title, "Theirs")
        XCTAssertEqual(sketch.zoom, 2)
    }

    // MARK: - Validation

    func testANonOptionalTransientWithoutAValueFailsWith1570() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Draft", properties: [
            .attribute("text", .string),
            .attribute("mood", .string, optional: false, transient: true),
        ])])
        let drafts = try makeContainer(model: model)
        let draft = ManagedObject(entity: try XCTUnwrap(model.entitiesByName["Draft"]), insertInto: drafts.viewContext)
        draft.setValue("hello", forKey: "text")
        let error = assertPersistenceError(.validationMissingMandatoryProperty) { try drafts.viewContext.save() }
        XCTAssertEqual(error?.entityName, "Draft")
        XCTAssertEqual(error?.key, "mood")
        XCTAssertEqual(error?.message, "Draft.mood is required but is nil.")
        draft.setValue("calm", forKey: "mood")
        try drafts.viewContext.save()

        // Read back, the transient is nil again: changing the draft fails until it is given a value, as in Core Data.
        let reader = drafts.newBackgroundContext()
        try reader.performAndWait {
            let copy = try reader.existingObject(with: draft.objectID)
            XCTAssertNil(copy.value(forKey: "mood"))
            copy.setValue("hello again", forKey: "text")
            assertPersistenceError(.validationMissingMandatoryProperty) { try reader.save() }
            copy.setValue("calm", forKey: "mood")
            try reader.save()
        }
    }

    // MARK: - Fetching

    func testTheStoreRefusesAPredicateOrSortOnATransientAttribute() throws {
        let sketch = makeSketch("Cat")
        sketch.isSelected = true
        try context.save()

        let selected = FetchRequest<Sketch>(entityName: "Sketch")
        selected.predicate = FetchPredicate(format: "isSelected == YES")
        let error = assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(selected) }
        XCTAssertEqual(error?.entityName, "Sketch")
        XCTAssertEqual(error?.key, "isSelected")
        XCTAssertTrue(error?.message.contains("Sketch.isSelected is a transient attribute") == true, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("keypath isSelected not found in entity Sketch") == true, error?.message ?? "")
        assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.count(for: selected) }

        let sorted = FetchRequest<Sketch>(entityName: "Sketch")
        sorted.sortDescriptors = [FetchSortDescriptor(key: "zoom", ascending: true)]
        XCTAssertEqual(assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(sorted) }?.key, "zoom")

        // Through a to-one, the error names the entity that has the attribute.
        let pinned = FetchRequest<Swatch>(entityName: "Swatch")
        pinned.predicate = FetchPredicate(format: "sketch.zoom > 1")
        let through = assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(pinned) }
        XCTAssertEqual(through?.entityName, "Sketch")
        XCTAssertEqual(through?.key, "zoom")
        XCTAssertTrue(through?.message.contains("'sketch.zoom'") == true, through?.message ?? "")

        // In memory the objects have the values, so a predicate may use them there.
        XCTAssertTrue(try FetchPredicate(format: "isSelected == YES AND zoom == 1").evaluate(checking: sketch))
        let all = try context.fetch(FetchRequest<Sketch>(entityName: "Sketch"))
        XCTAssertEqual(try all.filter { try selected.predicate!.evaluate(checking: $0) }, [sketch])
    }

    func testBatchRequestsAndDictionaryResultsLeaveTransientAttributesOut() throws {
        let insert = BatchInsertRequest(entityName: "Swatch", objects: [["name": "Red", "isPinned": true]])
        let refused = assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.execute(insert) }
        XCTAssertEqual(refused?.entityName, "Swatch")
        XCTAssertEqual(refused?.key, "isPinned")
        XCTAssertTrue(refused?.message.contains("Its stored attributes: name.") == true, refused?.message ?? "")
        try context.execute(BatchInsertRequest(entityName: "Swatch", objects: [["name": "Red"], ["name": "Blue"]]))

        let update = BatchUpdateRequest(entityName: "Swatch")
        update.propertiesToUpdate = ["isPinned": true]
        XCTAssertEqual(assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.execute(update) }?.key, "isPinned")

        let filtered = BatchUpdateRequest(entityName: "Swatch")
        filtered.predicate = FetchPredicate(format: "isPinned == YES")
        filtered.propertiesToUpdate = ["name": "Pinned"]
        XCTAssertEqual(assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.execute(filtered) }?.key, "isPinned")
        XCTAssertEqual(try storedCount("Swatch", "name IN {'Red', 'Blue'}"), 2, "nothing was changed")

        let rows = FetchRequest<NSDictionary>(entityName: "Swatch")
        rows.resultType = .dictionaryResultType
        rows.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        XCTAssertEqual(try context.fetch(rows).map { $0.allKeys.compactMap { $0 as? String }.sorted() }, [["name"], ["name"]], "stored attributes only")
        rows.propertiesToFetch = ["name", "isPinned"]
        let asked = assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(rows) }
        XCTAssertEqual(asked?.key, "isPinned")
        XCTAssertTrue(asked?.message.contains("Swatch.isPinned is a transient attribute") == true, asked?.message ?? "")
    }

    // MARK: - Inheritance

    func testASubentityHasItsOwnTransientAttributesAndItsParents() throws {
        let storyboard = Storyboard(context: context)
        storyboard.title = "Boards"
        storyboard.pages = 12
        storyboard.openPage = 5
        storyboard.isSelected = true
        try context.save()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let fetched = try reader.fetch(FetchRequest<Sketch>(entityName: "Sketch"))
            let read = try XCTUnwrap(fetched.first as? Storyboard, "a fetch of the parent returns the subentity's object")
            XCTAssertEqual(read.pages, 12)
            XCTAssertEqual(read.openPage, 0)
            XCTAssertFalse(read.isSelected)
        }

        let savedVersion = try version(of: storyboard.objectID)
        storyboard.openPage = 7
        XCTAssertTrue(storyboard.isUpdated)
        try context.save()
        XCTAssertEqual(try version(of: storyboard.objectID), savedVersion)
        context.refresh(storyboard, mergeChanges: true)
        XCTAssertEqual(storyboard.openPage, 7)
        storyboard.openPage = 8
        context.rollback()
        XCTAssertEqual(storyboard.openPage, 7)

        let opened = FetchRequest<Storyboard>(entityName: "Storyboard")
        opened.predicate = FetchPredicate(format: "pages > 1 AND openPage > 1")
        let error = assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(opened) }
        XCTAssertEqual(error?.entityName, "Storyboard")
        XCTAssertEqual(error?.key, "openPage")
    }

    // MARK: - Child contexts

    func testAChildContextSavesTransientValuesIntoItsParent() throws {
        let sketch = makeSketch("Cat")
        try context.save()
        let child = ManagedObjectContext(.privateQueue)
        child.parent = context
        try child.performAndWait {
            let copy = try XCTUnwrap(child.existingObject(with: sketch.objectID) as? Sketch)
            copy.zoom = 6
            try child.save()
        }
        XCTAssertEqual(sketch.zoom, 6, "the parent takes the child's change, as for a stored attribute")
        XCTAssertTrue(sketch.isUpdated)
        try context.save()
        XCTAssertEqual(try version(of: sketch.objectID), 1)
    }

    // MARK: - Version hash

    func testTheFlagIsPartOfTheVersionHashOnlyWhenSet() throws {
        // Pinned, as computed before transient attributes existed: models without them keep their hash.
        XCTAssertEqual(try TestModel.make().versionHash, "1AA44CE8493D5693")
        func model(_ zoom: PropertyDescription) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [EntityDescription(name: "Sketch", properties: [.attribute("title", .string), zoom])])
        }
        let stored = try model(.attribute("zoom", .double))
        XCTAssertEqual(stored.versionHash, "EFC66F1A82EA2156")
        XCTAssertEqual(try model(.attribute("zoom", .double, transient: false)).versionHash, stored.versionHash)
        XCTAssertNotEqual(try model(.attribute("zoom", .double, transient: true)).versionHash, stored.versionHash,
                          "making an attribute transient changes the store's shape")
    }

    func testAStoreMadeWithAStoredAttributeDoesNotOpenWithItTransient() throws {
        let url = try temporaryFolder().appendingPathComponent("Sketches.sqlite")
        let stored = try ManagedObjectModel(entities: [EntityDescription(name: "Sketch", properties: [.attribute("zoom", .double)])])
        let transient = try ManagedObjectModel(entities: [EntityDescription(name: "Sketch", properties: [.attribute("zoom", .double, transient: true)])])
        _ = try makeContainer(url: url, model: stored)
        // Another version (Apple counts isTransient in the hash) that no known version can migrate from: 134130.
        assertPersistenceError(.migrationMissingSourceModel) { _ = try makeContainer(url: url, model: transient) }
    }

    // MARK: - Models drawn in Xcode

    func testAModelFileWithTransientAttributesLoadsAndBehaves() throws {
        let file = try ManagedObjectModel(contentsOf: ModelFixtures.url("Sketchbook.xcdatamodel"),
                                          managedObjectClasses: [Sketch.self, Storyboard.self, Swatch.self])
        XCTAssertEqual(file.warnings, [])
        let code = try SketchbookModel.make()
        XCTAssertEqual(file.versionHash, code.versionHash, "the same model as the one in code")
        for entity in code.entities {
            let read = try XCTUnwrap(file.entitiesByName[entity.entityName])
            XCTAssertEqual(read.description.split(separator: "\n").sorted(), entity.description.split(separator: "\n").sorted())
        }
        let sketch = try XCTUnwrap(file.entitiesByName["Sketch"])
        XCTAssertEqual(sketch.attributesByName["isSelected"]?.isTransient, true)
        XCTAssertEqual(sketch.attributesByName["isSelected"]?.isOptional, false)
        XCTAssertEqual(sketch.attributesByName["caption"]?.isTransient, true)
        XCTAssertEqual(sketch.attributesByName["title"]?.isTransient, false)
        XCTAssertEqual(file.entitiesByName["Storyboard"]?.attributesByName["openPage"]?.isTransient, true)

        let drawn = try makeContainer(model: file)
        let made = Sketch(context: drawn.viewContext)
        made.title = "Drawn"
        made.zoom = 2
        try drawn.viewContext.save()
        XCTAssertEqual(try columns(of: "ZSKETCH", in: drawn), ["Z_PK", "Z_OPT", "Z_ENT", "ZTITLE", "ZPAGES"])
        try reread(made.objectID, in: drawn) { stored in
            XCTAssertEqual(stored.title, "Drawn")
            XCTAssertEqual(stored.zoom, 1)
        }
        made.isSelected = true
        XCTAssertTrue(made.isUpdated)
        try drawn.viewContext.save()
        XCTAssertEqual(try version(of: made.objectID, in: drawn), 1)
        XCTAssertTrue(made.isSelected)
    }
}
