import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// One object per ID per context: the tables behind the registry, and lookups by temporary and permanent IDs
/// through inserts, deletes and saves.
final class RegistryTests: PersistenceTestCase {
    private func probes(_ count: Int) -> [ManagedObject] {
        let entity = EntityDescription(name: "Probe", properties: [])
        return (0..<count).map { _ in ManagedObject(entity: entity, insertInto: nil) }
    }

    func testKeyTableFindsDenseStridedAndRemovedKeys() {
        for stride in [1, 2, 16, 17, 1024, 65536] {
            var table = KeyTable()
            let objects = probes(3000)
            let keys = objects.indices.map { Int64($0 * stride + 1) }
            for (key, object) in zip(keys, objects) { table.insert(object, for: key) }
            XCTAssertEqual(table.count, 3000, "stride \(stride)")
            for (key, object) in zip(keys, objects) {
                XCTAssertTrue(table.object(for: key) === object, "stride \(stride), key \(key)")
            }
            // Remove every other key; the rest must still be found past the holes.
            for key in keys.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) { table.remove(key) }
            for (offset, key) in keys.enumerated() {
                if offset % 2 == 0 {
                    XCTAssertNil(table.object(for: key), "stride \(stride), removed key \(key)")
                } else {
                    XCTAssertTrue(table.object(for: key) === objects[offset], "stride \(stride), key \(key)")
                }
            }
            XCTAssertNil(table.object(for: Int64(3000 * stride + 7)))
        }
    }

    func testPrimaryKeyTableFindsDenseSparseAndFarKeys() {
        let table = PrimaryKeyTable()
        let objects = probes(5000)
        // Dense keys from 1, keys a page apart, and keys far beyond any page (which go to the overflow table).
        var keys = (1...3000).map(Int64.init)
        keys += (0..<1000).map { Int64(100_000 + $0 * 64) }
        keys += (0..<1000).map { Int64(1) << 40 + Int64($0) * 7919 }
        for (key, object) in zip(keys, objects) { table.insert(object, for: key) }
        XCTAssertEqual(table.count, 5000)
        for (key, object) in zip(keys, objects) { XCTAssertTrue(table.object(for: key) === object, "key \(key)") }
        XCTAssertNil(table.object(for: 3001))
        XCTAssertNil(table.object(for: Int64(1) << 40 + 1))
        XCTAssertNil(table.object(for: Int64.max))
        XCTAssertEqual(Set(table.objects.map(ObjectIdentifier.init)).count, 5000)
        // Removing every other key leaves the rest findable; inserting a registered key again replaces it.
        for key in keys.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            XCTAssertNotNil(table.remove(key), "key \(key)")
        }
        XCTAssertEqual(table.count, 2500)
        XCTAssertNil(table.remove(keys[0]))
        for (offset, key) in keys.enumerated() where offset % 2 == 1 {
            XCTAssertTrue(table.object(for: key) === objects[offset], "key \(key)")
        }
        let replacement = probes(1)[0]
        table.insert(replacement, for: keys[1])
        XCTAssertTrue(table.object(for: keys[1]) === replacement)
        XCTAssertEqual(table.count, 2500)
    }

    func testPrimaryKeyTableMovesAnOverflowKeyToItsPageOnceThePageIsAllowed() {
        let table = PrimaryKeyTable()
        let far = probes(1)[0]
        // Far beyond the directory an empty table allows: kept in the overflow table.
        let farKey = Int64(2_000_000)
        table.insert(far, for: farKey)
        XCTAssertTrue(table.object(for: farKey) === far)
        // Enough pages in use (one key each) that the directory may reach the far key's page.
        let objects = probes(4_000)
        for (offset, object) in objects.enumerated() { table.insert(object, for: Int64(offset * 64 + 1)) }
        XCTAssertEqual(table.count, 4_001)
        let again = probes(1)[0]
        table.insert(again, for: farKey)
        XCTAssertEqual(table.count, 4_001, "the key is counted once, wherever it was")
        XCTAssertTrue(table.object(for: farKey) === again)
        XCTAssertTrue(table.remove(farKey) === again)
        XCTAssertNil(table.object(for: farKey))
        XCTAssertEqual(table.count, 4_000)
    }

    func testPrimaryKeyTableHandsBackSharedObjectsOnly() {
        let table = PrimaryKeyTable()
        var kept = probes(3)
        for (offset, object) in kept.enumerated() { table.insert(object, for: Int64(offset + 1)) }
        for key in 10...20 { table.insert(probes(1)[0], for: Int64(key)) }
        kept.removeLast()
        var shared: [ObjectIdentifier] = []
        table.forEachSharedObject { shared.append(ObjectIdentifier($0)) }
        XCTAssertEqual(Set(shared), Set(kept.map(ObjectIdentifier.init)))
    }

    func testTemporaryTableIndexesLazilyAndForgetsRemovedEntries() {
        var table = TemporaryTable()
        let objects = probes(500)
        // Each object goes in under its own temporary ID's number, as the registry puts it there.
        let numbers = objects.map(\.objectID.key)
        for object in objects { table.insert(object, for: object.objectID.key) }
        XCTAssertEqual(table.count, 500)
        XCTAssertTrue(table.object(for: numbers[249]) === objects[249])
        table.remove(numbers[249])
        XCTAssertNil(table.object(for: numbers[249]))
        XCTAssertTrue(table.object(for: numbers[250]) === objects[250])
        // Entries added after the first lookup are found too.
        let late = probes(1)[0]
        table.insert(late, for: late.objectID.key)
        XCTAssertTrue(table.object(for: late.objectID.key) === late)
        XCTAssertEqual(table.count, 500)
        XCTAssertEqual(Set(table.objects.map(ObjectIdentifier.init)).count, 500)
        table.removeAll()
        XCTAssertEqual(table.count, 0)
        XCTAssertNil(table.object(for: 1))
    }

    func testThousandsOfNewObjectsAreFoundByTemporaryThenPermanentIDs() throws {
        let movies = (0..<3000).map { makeMovie("m\($0)", year: $0) }
        let temporaryIDs = movies.map(\.objectID)
        for (movie, id) in zip(movies, temporaryIDs) {
            XCTAssertTrue(context.registeredObject(for: id) === movie)
        }
        try context.save()
        for (movie, id) in zip(movies, temporaryIDs) {
            XCTAssertFalse(movie.objectID.isTemporaryID)
            XCTAssertNil(context.registeredObject(for: id), "a temporary ID names nothing once its object is saved")
            XCTAssertTrue(context.registeredObject(for: movie.objectID) === movie)
            XCTAssertTrue(context.object(with: movie.objectID) === movie)
        }
    }

    func testASaveThatLeavesSomeTemporaryIDsKeepsThemFindable() throws {
        let kept = (0..<200).map { makeMovie("kept \($0)") }
        let dropped = (0..<50).map { makeMovie("dropped \($0)") }
        // Deleting unsaved objects: they are forgotten by the save, not written.
        for movie in dropped { context.delete(movie) }
        let child = ManagedObjectContext(.mainQueue)
        child.parent = context
        let draft = Movie(context: child)
        draft.title = "draft"
        try context.save()
        for movie in kept { XCTAssertTrue(context.registeredObject(for: movie.objectID) === movie) }
        for movie in dropped { XCTAssertNil(movie.managedObjectContext) }
        // The child's object keeps its temporary ID and is found under it.
        XCTAssertTrue(draft.objectID.isTemporaryID)
        XCTAssertTrue(child.registeredObject(for: draft.objectID) === draft)
        try child.save()
        try context.save()
        XCTAssertEqual(try context.count(for: Movie.fetchRequest()), 201)
    }

    func testEveryObjectThatLeavesAContextForGoodIsEvicted() throws {
        // Each way out of a context: an insert rolled back, a delete rolled back before its first save, a delete
        // saved, a delete saved by a child into its parent, a deletion merged from elsewhere. None of them may
        // still point at the context, hold values or sit in a change list.
        let rolledBack = makeMovie("rolled back")
        let unsavedDeleted = makeMovie("deleted before saving")
        context.delete(unsavedDeleted)
        context.rollback()
        let saved = makeMovie("saved then deleted")
        let childDeleted = makeMovie("deleted by a child")
        try context.save()
        context.delete(saved)
        try context.save()
        let child = ManagedObjectContext(.mainQueue)
        child.parent = context
        let inChild = try XCTUnwrap(child.existingObject(with: childDeleted.objectID) as? Movie)
        child.delete(inChild)
        try child.save()
        let merged = makeMovie("deleted elsewhere")
        try context.save()
        try deleteElsewhere(merged.objectID)
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.NotificationKey.deletedObjects.rawValue: [merged.objectID]],
            into: [context])
        for movie in [rolledBack, unsavedDeleted, saved, inChild, merged] {
            XCTAssertNil(movie.managedObjectContext, "\(movie.objectID)")
            XCTAssertFalse(movie.isInserted || movie.isUpdated, "\(movie.objectID)")
        }
        // Evicted: emptied. (What `isDeleted` and `isFault` say of an object whose deletion was merged, Apple does not
        // document; here it stays deleted and inaccessible, and that is not this test's business.)
        for movie in [rolledBack, unsavedDeleted, saved, inChild] {
            XCTAssertFalse(movie.isDeleted, "\(movie.objectID)")
            XCTAssertTrue(movie.isFault, "\(movie.objectID)")
        }
        XCTAssertNil(child.registeredObject(for: inChild.objectID))
        XCTAssertEqual(context.registeredObjects.count, 0)
    }

    func testIDsMadeFromURIsAreEqualAndHashAlike() throws {
        let movie = makeMovie("Heat")
        try context.save()
        let id = movie.objectID
        let parsed = try XCTUnwrap(ManagedObjectID(uriRepresentation: id.uriRepresentation()))
        XCTAssertEqual(parsed, id)
        XCTAssertEqual(parsed.hashValue, id.hashValue)
        XCTAssertEqual(Set([id, parsed]).count, 1)
        XCTAssertTrue(context.registeredObject(for: parsed) === movie)
    }

    func testObjectsKeptAfterTheirContextGoesAwayAreDetachedAndTheRestAreFreed() throws {
        weak var unheldDirector: Director?
        weak var unheldMovie: Movie?
        var kept: Movie?
        try {
            let background = container.newBackgroundContext()
            try background.performAndWait {
                let director = Director(context: background)
                director.name = "Kurosawa"
                let keptMovie = Movie(context: background)
                keptMovie.title = "Ran"
                keptMovie.director = director
                // An unheld pair that points at each other, and at the kept movie's director.
                let movie = Movie(context: background)
                movie.title = "Ikiru"
                movie.director = director
                try background.save()
                kept = keptMovie
                unheldDirector = director
                unheldMovie = movie
            }
        }()
        // The context is gone: the kept object no longer points at it, and it let go of its related objects, so the
        // director and the other movie (a cycle through the inverse relationship) were freed.
        let movie = try XCTUnwrap(kept)
        XCTAssertNil(movie.managedObjectContext)
        XCTAssertNil(unheldDirector)
        XCTAssertNil(unheldMovie)
    }

    func testResetDetachesHeldObjectsAndForgetsEveryone() throws {
        let movie = makeMovie("Stalker")
        try context.save()
        let id = movie.objectID
        context.reset()
        XCTAssertNil(movie.managedObjectContext)
        XCTAssertTrue(context.registeredObjects.isEmpty)
        XCTAssertNil(context.registeredObject(for: id))
        let again = try XCTUnwrap(context.existingObject(with: id) as? Movie)
        XCTAssertFalse(again === movie)
        XCTAssertEqual(again.title, "Stalker")
    }
}
