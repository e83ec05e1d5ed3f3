import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// `willSave()` as Core Data calls it: whatever it inserts, changes or deletes is written by the same save and gets a
/// `willSave()` of its own (deletions after their delete rules), an object changed again after its call gets another,
/// round after round until nothing more changes — and a `willSave()` that never stops changing things fails the save
/// after 100 rounds instead of spinning. Validation comes after the last round, the did-save notification lists what
/// the rounds changed, no round runs under the coordinator's lock, and a child's save into its parent runs them too.
final class WillSaveTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try MoodModel.make() }

    override func setUpWithError() throws {
        try super.setUpWithError()
        MoodCountry.probesLock = false
        MoodCountry.lockWasHeld = []
        MoodLogEntry.nestedSaveError = nil
    }

    /// A country with `moods` moods, saved; the counters of willSave() calls start from nothing.
    private func makeCountry(_ name: String, moods feelings: [String] = ["calm"], in context: ManagedObjectContext? = nil) throws -> MoodCountry {
        let context = context ?? self.context
        let country = MoodCountry(context: context)
        country.name = name
        for feeling in feelings {
            let mood = Mood(context: context)
            mood.feeling = feeling
            mood.country = country
        }
        try context.save()
        country.willSaveCalls = 0
        for mood in country.moods { mood.willSaveCalls = 0 }
        return country
    }

    private func stored(_ entityName: String, _ key: String, of id: ManagedObjectID) throws -> Any? {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.existingObject(with: id).value(forKey: key) }
    }

    /// Records the did-save notifications `body` causes, as the sets of objects they carry.
    private func savedSets(of context: ManagedObjectContext, during body: () throws -> Void) rethrows
        -> (inserted: Set<ManagedObject>, updated: Set<ManagedObject>, deleted: Set<ManagedObject>, deletedIDs: Set<ManagedObjectID>) {
        nonisolated(unsafe) var objects: [AnyHashable: Any] = [:]
        nonisolated(unsafe) var ids: [AnyHashable: Any] = [:]
        let center = NotificationCenter.default
        let first = center.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil) {
            objects = $0.userInfo ?? [:]
        }
        let second = center.addObserver(forName: ManagedObjectContext.didSaveObjectIDsNotification, object: context, queue: nil) {
            ids = $0.userInfo ?? [:]
        }
        defer {
            center.removeObserver(first)
            center.removeObserver(second)
        }
        try body()
        func set(_ key: ManagedObjectContext.NotificationKey) -> Set<ManagedObject> { objects[key.rawValue] as? Set<ManagedObject> ?? [] }
        return (set(.insertedObjects), set(.updatedObjects), set(.deletedObjects),
                ids[ManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue] as? Set<ManagedObjectID> ?? [])
    }

    // MARK: - Chains

    func testAnObjectChangedInAnothersWillSaveIsSavedInTheSameSaveAndGetsItsOwnWillSave() throws {
        let country = try makeCountry("Norway")
        XCTAssertEqual(country.moodCount, 1, "the first save already ran a chain: the new mood counted itself in")
        XCTAssertEqual(try stored("Country", "moodCount", of: country.objectID) as? Int, 1)

        // Only the mood is changed; its willSave() changes the country.
        let mood = try XCTUnwrap(country.moods.first)
        mood.score = 4
        XCTAssertFalse(country.hasChanges)
        let saved = try savedSets(of: context) { try context.save() }

        XCTAssertEqual(mood.willSaveCalls, 1)
        XCTAssertEqual(country.willSaveCalls, 1, "changed by the mood's willSave(), the country gets its own")
        XCTAssertEqual(country.scoreTotal, 4)
        XCTAssertFalse(context.hasChanges, "nothing is left for a next save")
        XCTAssertFalse(country.hasChanges)
        XCTAssertEqual(try stored("Country", "scoreTotal", of: country.objectID) as? Int, 4)
        XCTAssertEqual(saved.updated, [mood, country] as Set<ManagedObject>)
        XCTAssertTrue(saved.inserted.isEmpty)
    }

    func testANewObjectsWillSaveCountsItIntoItsCountry() throws {
        let country = try makeCountry("Norway")
        let mood = Mood(context: context)
        mood.feeling = "joy"
        mood.country = country
        try context.save()

        XCTAssertEqual(mood.willSaveCalls, 1)
        // Round 1: the country, changed by the relationship; round 2: changed again by the mood's willSave().
        XCTAssertEqual(country.willSaveCalls, 2)
        XCTAssertEqual(try stored("Country", "moodCount", of: country.objectID) as? Int, 2)
        XCTAssertFalse(context.hasChanges)
    }

    func testAnObjectChangedAgainAfterItsWillSaveRanGetsAnotherCall() throws {
        let country = try makeCountry("Chile")
        let mood = try XCTUnwrap(country.moods.first)
        // The country is changed first, so its willSave() runs before the mood's, which changes it again.
        country.name = "Republic of Chile"
        mood.score = 7
        try context.save()

        XCTAssertEqual(mood.willSaveCalls, 1)
        XCTAssertEqual(country.willSaveCalls, 2)
        XCTAssertEqual(country.scoreTotal, 7)
        XCTAssertEqual(try stored("Country", "scoreTotal", of: country.objectID) as? Int, 7)
        XCTAssertEqual(try stored("Country", "name", of: country.objectID) as? String, "Republic of Chile")
        XCTAssertFalse(context.hasChanges)
    }

    func testANewObjectThatSetsItsOwnValueInWillSaveGetsCalledAgainAndSavesTheValue() throws {
        let entry = MoodLogEntry(context: context)
        entry.text = "first"
        try context.save()

        XCTAssertEqual(entry.stamp, "stamped")
        XCTAssertEqual(entry.willSaveCalls, 2, "its own change calls it again; the second call changes nothing")
        XCTAssertEqual(try stored("LogEntry", "stamp", of: entry.objectID) as? String, "stamped")
        XCTAssertFalse(context.hasChanges)
    }

    // MARK: - Deletions

    func testAnObjectThatDeletesItselfInWillSaveWhenItsLastMoodGoesIsDeleted() throws {
        let country = try makeCountry("Peru")
        let mood = try XCTUnwrap(country.moods.first)
        let ids = (country: country.objectID, mood: mood.objectID)

        context.delete(mood)
        let saved = try savedSets(of: context) { try context.save() }

        // Round 1: the country (nullified by the mood's deletion) finds a mood still counted; the mood uncounts itself.
        // Round 2: the country finds none and deletes itself. Round 3: the country, deleted.
        XCTAssertEqual(country.willSaveCalls, 3)
        XCTAssertEqual(mood.willSaveCalls, 1)
        XCTAssertEqual(try storedCount("Country"), 0)
        XCTAssertEqual(try storedCount("Mood"), 0)
        XCTAssertFalse(context.hasChanges)
        XCTAssertNil(context.registeredObject(for: ids.country))
        XCTAssertEqual(saved.deleted, [country, mood] as Set<ManagedObject>)
        XCTAssertEqual(saved.deletedIDs, [ids.country, ids.mood])
        XCTAssertTrue(saved.updated.isEmpty, "the country was deleted, not updated: \(saved.updated)")
    }

    func testADeletionInWillSaveCascades() throws {
        let country = try makeCountry("Atlantis", moods: ["calm", "awe", "dread"])
        let moods = country.moods
        country.closing = true
        let saved = try savedSets(of: context) { try context.save() }

        XCTAssertTrue(country.isDeleted || country.managedObjectContext == nil)
        XCTAssertEqual(try storedCount("Country"), 0)
        XCTAssertEqual(try storedCount("Mood"), 0, "the country's deletion cascaded to its moods")
        for mood in moods { XCTAssertEqual(mood.willSaveCalls, 1, "each cascaded deletion gets its willSave()") }
        XCTAssertEqual(saved.deleted, Set<ManagedObject>(moods.map { $0 as ManagedObject } + [country]))
        XCTAssertFalse(context.hasChanges)
    }

    func testADeletionInWillSaveNullifiesItsInverse() throws {
        let country = try makeCountry("Iceland", moods: ["calm", "gloom"])
        let gloom = try XCTUnwrap(country.moods.first { $0.feeling == "gloom" })
        gloom.retracted = true
        try context.save()

        XCTAssertEqual(country.moods.map(\.feeling), ["calm"], "the mood's deletion nullified the country's side")
        XCTAssertEqual(country.moodCount, 1, "the deleted mood's willSave() recounted, after the delete rule ran")
        XCTAssertEqual(gloom.willSaveCalls, 2, "updated, then deleted by its own willSave()")
        XCTAssertEqual(try storedCount("Mood"), 1)
        XCTAssertEqual(try stored("Country", "moodCount", of: country.objectID) as? Int, 1)
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(reader.existingObject(with: country.objectID) as? MoodCountry)
            XCTAssertEqual(stored.moods.map(\.feeling), ["calm"])
        }
        XCTAssertFalse(context.hasChanges)
    }

    // MARK: - Insertions

    func testAnObjectInsertedInWillSaveIsSavedAndGetsItsOwnWillSave() throws {
        let country = try makeCountry("Japan")
        let mood = Mood(context: context)
        mood.feeling = "wonder"
        mood.country = country
        mood.logs = true
        let saved = try savedSets(of: context) { try context.save() }

        let entry = try XCTUnwrap(mood.logEntry)
        XCTAssertEqual(entry.text, "wonder in Japan")
        XCTAssertEqual(entry.willSaveCalls, 2, "inserted in willSave(), it gets its own (twice: it stamps itself)")
        XCTAssertFalse(entry.objectID.isTemporaryID, "saved with the rest: it has its permanent ID")
        XCTAssertEqual(try storedCount("LogEntry"), 1)
        XCTAssertEqual(try stored("LogEntry", "stamp", of: entry.objectID) as? String, "stamped")
        XCTAssertEqual(saved.inserted, [mood, entry] as Set<ManagedObject>)
        XCTAssertEqual(saved.updated, [country] as Set<ManagedObject>, "the country, changed by the mood's willSave()")
        XCTAssertFalse(context.hasChanges)
    }

    // MARK: - Loops

    func testAWillSaveThatNeverStopsChangingItsObjectFailsTheSaveNamingIt() throws {
        let ticker = Ticker(context: context)
        ticker.name = "metronome"
        let started = Date()
        XCTAssertThrowsError(try context.save()) { error in
            let error = error as! PersistenceError
            XCTAssertEqual(error.coreDataCode, .coreData)
            XCTAssertEqual(error.entityName, "Ticker")
            XCTAssertEqual(error.objectID, ticker.objectID)
            XCTAssertTrue(error.object === ticker)
            XCTAssertTrue(error.message.contains("Ticker \(ticker.objectID)"), error.message)
            XCTAssertTrue(error.message.contains("100 rounds"), error.message)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertEqual(ticker.willSaveCalls, ManagedObjectContext.willSaveRoundLimit)
        XCTAssertEqual(ManagedObjectContext.willSaveRoundLimit, 100)
        XCTAssertEqual(try storedCount("Ticker"), 0, "nothing was written")
        XCTAssertTrue(context.hasChanges, "the context keeps its changes, as after any failed save")
        context.rollback()
        XCTAssertFalse(context.hasChanges)
    }

    func testAWillSaveThatKeepsChangingASavedObjectFailsTheSaveAndWritesNothing() throws {
        let ticker = Ticker(context: context)
        ticker.name = "clock"
        ticker.paused = true
        try context.save()
        ticker.paused = false
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual((error as? PersistenceError)?.coreDataCode, .coreData)
            XCTAssertEqual((error as? PersistenceError)?.objectID, ticker.objectID)
        }
        XCTAssertEqual(try stored("Ticker", "ticks", of: ticker.objectID) as? Int, 0)
        XCTAssertEqual(try stored("Ticker", "paused", of: ticker.objectID) as? Bool, true)
    }

    func testAWillSaveThatInsertsANewObjectEveryRoundFailsTheSave() throws {
        let ticker = Ticker(context: context)
        ticker.name = "spawner"
        ticker.paused = true
        ticker.spawns = true
        XCTAssertThrowsError(try context.save()) { error in
            let error = error as! PersistenceError
            XCTAssertEqual(error.coreDataCode, .coreData)
            XCTAssertEqual(error.entityName, "Ticker")
            XCTAssertTrue(error.message.contains("Ticker"), error.message)
        }
        XCTAssertEqual(try storedCount("Ticker"), 0)
        XCTAssertEqual(context.insertedObjects.count, ManagedObjectContext.willSaveRoundLimit + 1,
                       "the first ticker and one new one a round, the last made in the 100th")
    }

    func testSavingFromWillSaveFails() throws {
        let entry = MoodLogEntry(context: context)
        entry.text = "save"
        try context.save()
        let nested = try XCTUnwrap(MoodLogEntry.nestedSaveError)
        XCTAssertEqual(nested.coreDataCode, .coreData)
        XCTAssertTrue(nested.message.contains("willSave()"), nested.message)
        XCTAssertEqual(try storedCount("LogEntry"), 1, "the save itself went on")
    }

    // MARK: - Validation, notifications, the lock

    func testValidationRunsAfterTheLastRound() throws {
        let entry = MoodLogEntry(context: context)
        XCTAssertNil(entry.text)
        try context.save()
        XCTAssertEqual(entry.text, "(untitled)", "willSave() filled the mandatory value before validation")

        entry.text = "erase"
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual((error as? PersistenceError)?.coreDataCode, .validationMissingMandatoryProperty)
            XCTAssertEqual((error as? PersistenceError)?.key, "text")
        }
        XCTAssertEqual(try stored("LogEntry", "text", of: entry.objectID) as? String, "(untitled)")
    }

    func testTheDidChangeNotificationReportsWhatWillSaveChanged() throws {
        let country = try makeCountry("Ghana")
        let mood = Mood(context: context)
        mood.feeling = "pride"
        mood.country = country
        mood.logs = true
        context.processPendingChanges()
        nonisolated(unsafe) var reported: [[AnyHashable: Any]] = []
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                           object: context, queue: nil) { reported.append($0.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(token) }
        try context.save()
        let entry: ManagedObject = try XCTUnwrap(mood.logEntry)
        let inserted = reported.map { $0[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject> ?? [] }
        XCTAssertTrue(inserted.contains { $0.contains(entry) }, "\(reported)")
    }

    func testLaterRoundsOfWillSaveRunOutsideTheCoordinatorsLock() throws {
        let country = try makeCountry("Kenya")
        MoodCountry.probesLock = true
        try XCTUnwrap(country.moods.first).score = 3
        try context.save()
        XCTAssertEqual(country.willSaveCalls, 1)
        XCTAssertEqual(MoodCountry.lockWasHeld, [false], "another thread could take the coordinator's lock")
    }

    // MARK: - Child contexts

    func testAChildsSaveIntoItsParentRunsTheRounds() throws {
        let country = try makeCountry("Brazil")
        let child = ManagedObjectContext(.privateQueue)
        child.parent = context
        let moodID = try XCTUnwrap(country.moods.first).objectID
        let (calls, childTotal, childHasChanges) = try child.performAndWait { () -> (Int, Int, Bool) in
            let mood = try XCTUnwrap(child.existingObject(with: moodID) as? Mood)
            mood.score = 5
            mood.logs = true
            try child.save()
            let theirs = try XCTUnwrap(mood.country)
            return (theirs.willSaveCalls, theirs.scoreTotal, child.hasChanges)
        }
        XCTAssertEqual(calls, 1, "changed by the mood's willSave() in the child, the child's country gets its own")
        XCTAssertEqual(childTotal, 5)
        XCTAssertFalse(childHasChanges)

        XCTAssertEqual(country.scoreTotal, 5, "the parent got what the child's rounds changed")
        XCTAssertEqual(context.insertedObjects.count, 1, "the log entry the mood's willSave() made")
        XCTAssertEqual(try storedCount("Country", "scoreTotal == 5"), 0, "a child saves into its parent only")
        try context.save()
        XCTAssertEqual(try storedCount("Country", "scoreTotal == 5"), 1)
        XCTAssertEqual(try storedCount("LogEntry", "stamp == 'stamped'"), 1)
    }

    func testALoopInAChildsWillSaveFailsItsSaveAndLeavesTheParentAlone() throws {
        let child = ManagedObjectContext(.privateQueue)
        child.parent = context
        let failure = child.performAndWait { () -> PersistenceError? in
            let ticker = Ticker(context: child)
            ticker.name = "child"
            do {
                try child.save()
                return nil
            } catch {
                return error as? PersistenceError
            }
        }
        XCTAssertEqual(failure?.coreDataCode, .coreData)
        XCTAssertEqual(failure?.entityName, "Ticker")
        XCTAssertFalse(context.hasChanges)
    }
}

// MARK: - The model

/// A country counts its moods (each mood keeps the count right from its own `willSave()`), adds up their scores,
/// and goes away when its last mood goes (deleting itself from its `willSave()`) or when it is closing.
final class MoodCountry: ManagedObject {
    @Managed var name: String
    @Managed var moodCount: Int
    @Managed var scoreTotal: Int
    @Managed var closing: Bool
    @Managed var moods: Set<Mood>
    var willSaveCalls = 0

    nonisolated(unsafe) static var probesLock = false
    nonisolated(unsafe) static var lockWasHeld: [Bool] = []

    override func willSave() {
        super.willSave()
        willSaveCalls += 1
        if Self.probesLock, let coordinator = managedObjectContext?.persistentStoreCoordinator {
            Self.lockWasHeld.append(!Self.canTakeLock(of: coordinator))
        }
        guard !isDeleted, !isInserted else { return }
        if closing || moodCount == 0 { managedObjectContext?.delete(self) }
    }

    /// Whether another thread can take `coordinator`'s lock (recursive: only another thread finds out).
    private static func canTakeLock(of coordinator: PersistentStoreCoordinator) -> Bool {
        let taken = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = coordinator.storeIdentifier
            taken.signal()
        }
        return taken.wait(timeout: .now() + 2) == .success
    }
}

/// A mood keeps its country's count and score total right; a retracted one deletes itself; one that logs makes a
/// log entry the first time it is saved.
final class Mood: ManagedObject {
    @Managed var feeling: String
    @Managed var score: Int
    @Managed var retracted: Bool
    @Managed var logs: Bool
    @Managed var country: MoodCountry?
    @Managed var logEntry: MoodLogEntry?
    var willSaveCalls = 0

    override func willSave() {
        super.willSave()
        willSaveCalls += 1
        if retracted && !isDeleted {
            managedObjectContext?.delete(self)
            return
        }
        if logs && !isDeleted && logEntry == nil, let context = managedObjectContext {
            let entry = MoodLogEntry(context: context)
            entry.text = "\(feeling) in \(country?.name ?? "nowhere")"
            logEntry = entry
        }
        // A deleted mood's country is the one it was saved with (its own side is not cleared by the delete rule).
        let country = isDeleted ? committedValues(forKeys: ["country"])["country"] as? MoodCountry : self.country
        guard let country, !country.isDeleted else { return }
        let moods = country.moods
        // Set only when different: setting a value is a change, and a change calls willSave() again.
        if country.moodCount != moods.count { country.moodCount = moods.count }
        let total = moods.reduce(0) { $0 + $1.score }
        if country.scoreTotal != total { country.scoreTotal = total }
    }
}

/// A log entry stamps itself the first time it is saved and then fills a missing text; with the text "erase" it
/// clears the text, which validation then refuses; with the text "save" it tries to save its context from
/// `willSave()`.
final class MoodLogEntry: ManagedObject {
    @Managed var text: String?
    @Managed var stamp: String?
    @Managed var mood: Mood?
    var willSaveCalls = 0

    nonisolated(unsafe) static var nestedSaveError: PersistenceError?

    override func willSave() {
        super.willSave()
        willSaveCalls += 1
        if stamp == nil {
            stamp = "stamped"
            if text == nil { text = "(untitled)" }
        }
        if text == "erase" { text = nil }
        if text == "save", Self.nestedSaveError == nil {
            do {
                try managedObjectContext?.save()
            } catch {
                Self.nestedSaveError = error as? PersistenceError
            }
        }
    }
}

/// A ticker changes itself in every `willSave()` unless paused; a spawning one makes another spawning ticker in
/// every `willSave()`. Neither ever lets a save end.
final class Ticker: ManagedObject {
    @Managed var name: String
    @Managed var ticks: Int
    @Managed var paused: Bool
    @Managed var spawns: Bool
    var willSaveCalls = 0

    override func willSave() {
        super.willSave()
        willSaveCalls += 1
        if !paused { ticks += 1 }
        if spawns, let context = managedObjectContext {
            let next = Ticker(context: context)
            next.name = name
            next.paused = true
            next.spawns = true
        }
    }
}

enum MoodModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Country", managedObjectClass: MoodCountry.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("moodCount", .integer64, defaultValue: 0),
                .attribute("scoreTotal", .integer64, defaultValue: 0),
                .attribute("closing", .boolean, defaultValue: false),
                .toMany("moods", "Mood", inverse: "country", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Mood", managedObjectClass: Mood.self, properties: [
                .attribute("feeling", .string, optional: false),
                .attribute("score", .integer64, defaultValue: 0),
                .attribute("retracted", .boolean, defaultValue: false),
                .attribute("logs", .boolean, defaultValue: false),
                .toOne("country", "Country", inverse: "moods", deleteRule: .nullify),
                .toOne("logEntry", "LogEntry", inverse: "mood", deleteRule: .nullify),
            ]),
            EntityDescription(name: "LogEntry", managedObjectClass: MoodLogEntry.self, properties: [
                .attribute("text", .string, optional: false),
                .attribute("stamp", .string),
                .toOne("mood", "Mood", inverse: "logEntry", deleteRule: .nullify),
            ]),
            EntityDescription(name: "Ticker", managedObjectClass: Ticker.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("ticks", .integer64, defaultValue: 0),
                .attribute("paused", .boolean, defaultValue: false),
                .attribute("spawns", .boolean, defaultValue: false),
            ]),
        ])
    }
}
