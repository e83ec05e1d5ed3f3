import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class QueryGenerationTests: PersistenceTestCase {
    /// Another context renames the movie, adds one (called `added`), and saves.
    private func changeElsewhere(_ id: ManagedObjectID, renamed: String = "Renamed", added: String = "Added") throws {
        let other = container.newBackgroundContext()
        try other.performAndWait {
            (try other.existingObject(with: id) as? Movie)?.title = renamed
            let movie = Movie(context: other)
            movie.title = added
            try other.save()
        }
    }

    private func titles(_ context: ManagedObjectContext) throws -> [String] {
        try context.performAndWait { try context.fetch(Movie.fetchRequest()).map(\.title).sorted() }
    }

    func testAPinnedContextKeepsReadingItsSnapshot() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        XCTAssertEqual(try titles(reader), ["Alien"], "the first read takes the snapshot")
        XCTAssertNotNil(reader.performAndWait { reader.queryGenerationToken })

        try changeElsewhere(alien.objectID)
        XCTAssertEqual(try titles(reader), ["Alien"], "saves after the snapshot are not seen")
        let unpinned = container.newBackgroundContext()
        XCTAssertEqual(try titles(unpinned), ["Added", "Renamed"])
    }

    func testFaultsReadTheSnapshotToo() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        _ = try titles(reader)
        reader.performAndWait { reader.reset() }              // forget the objects (reset also moves forward)…
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }   // …so pin again
        _ = try titles(reader)
        try changeElsewhere(alien.objectID)
        let title = reader.performAndWait { (reader.object(with: alien.objectID) as? Movie)?.title }
        XCTAssertEqual(title, "Alien", "a fault fired after the other save still reads the snapshot")
    }

    func testPinningToCurrentWaitsForTheNextRead() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        XCTAssertNil(reader.performAndWait { reader.queryGenerationToken }, "nothing read yet, nothing pinned")
        try changeElsewhere(alien.objectID)
        XCTAssertEqual(try titles(reader), ["Added", "Renamed"], "pinned at the read, after the save")
    }

    func testTwoContextsCanShareASnapshot() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let first = container.newBackgroundContext()
        try first.performAndWait { try first.setQueryGenerationFrom(.current) }
        _ = try titles(first)
        let token = try XCTUnwrap(first.performAndWait { first.queryGenerationToken })
        try changeElsewhere(alien.objectID)
        let second = container.newBackgroundContext()
        try second.performAndWait { try second.setQueryGenerationFrom(token) }
        XCTAssertEqual(try titles(second), ["Alien"], "the second context reads the first one's snapshot")
    }

    func testSaveResetAndMergeMoveAPinnedContextForward() throws {
        let alien = makeMovie("Alien")
        try context.save()
        try context.setQueryGenerationFrom(.current)
        _ = try titles(context)
        try changeElsewhere(alien.objectID)
        XCTAssertEqual(try titles(context), ["Alien"])
        context.reset()
        XCTAssertEqual(try titles(context), ["Added", "Renamed"], "reset moves to the newest data")

        try changeElsewhere(try XCTUnwrap(context.fetch(Movie.fetchRequest()).first { $0.title == "Added" }).objectID,
                            renamed: "Renamed again", added: "Added later")
        XCTAssertEqual(try titles(context), ["Added", "Renamed"], "pinned again at the read after the reset")
        // Held, so they stay in memory (a context keeps an unchanged object only while something does).
        let inMemory = try context.fetch(Movie.fetchRequest())
        makeMovie("Mine", year: 1)
        try context.save()
        XCTAssertEqual(try titles(context), ["Added", "Added later", "Mine", "Renamed"],
                       "a save moves forward: the new row appears; objects already in memory keep their values…")
        context.refreshAllObjects()
        XCTAssertEqual(try titles(context), ["Added later", "Mine", "Renamed", "Renamed again"], "…until refreshed")
        withExtendedLifetime(inMemory) {}
    }

    /// Apple's header: automatic merging "when the context is pinned to a non-current query generation is not
    /// supported"; `.current` with automatic merging is fine (each merge moves the context forward).
    func testAutomaticMergingOnAContextPinnedToAnotherContextsTokenIsAMistake() throws {
        makeMovie("Alien")
        try context.save()
        try context.setQueryGenerationFrom(.current)
        _ = try titles(context)
        let token = try XCTUnwrap(context.queryGenerationToken)
        for order in ["merging first", "pinning first"] {
            let reader = container.newBackgroundContext()
            try reader.performAndWait {
                if order == "merging first" {
                    reader.automaticallyMergesChangesFromParent = true
                    try reader.setQueryGenerationFrom(token)
                } else {
                    try reader.setQueryGenerationFrom(token)
                    reader.automaticallyMergesChangesFromParent = true
                }
                makeMovie("Mine", in: reader)
                let error = assertPersistenceError(.coreData) { try reader.save() }
                XCTAssertTrue(error?.message.contains("not supported") == true, "\(order): \(error?.message ?? "no error")")
            }
        }
        let follower = container.newBackgroundContext()
        try follower.performAndWait {
            follower.automaticallyMergesChangesFromParent = true
            try follower.setQueryGenerationFrom(.current)
            makeMovie("Mine", in: follower)
            XCTAssertNoThrow(try follower.save(), "the current generation with automatic merging is supported")
        }
    }

    func testUnpinningReadsTheNewestData() throws {
        let alien = makeMovie("Alien")
        try context.save()
        try context.setQueryGenerationFrom(.current)
        _ = try titles(context)
        try changeElsewhere(alien.objectID)
        try context.setQueryGenerationFrom(nil)
        XCTAssertNil(context.queryGenerationToken)
        XCTAssertEqual(try titles(context).count, 2)
    }

    func testATokenFromAnotherStoreIsRefused() throws {
        let other = try makeContainer()
        try other.viewContext.setQueryGenerationFrom(.current)
        _ = try other.viewContext.fetch(Movie.fetchRequest())
        let foreign = try XCTUnwrap(other.viewContext.queryGenerationToken)
        let error = assertPersistenceError(.coreData) { try context.setQueryGenerationFrom(foreign) }
        XCTAssertTrue(error?.message.contains("another store") == true, error?.message ?? "")
    }

    func testInaccessibleFaultsAreReportedWhenNotDeletedSilently() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let id = alien.objectID
        try deleteElsewhere(id)
        let strict = container.newBackgroundContext()
        strict.shouldDeleteInaccessibleFaults = false
        strict.performAndWait {
            let fault = strict.object(with: id) as? Movie
            XCTAssertEqual(fault?.title, "")
            let error = assertPersistenceError(.managedObjectReferentialIntegrity) { try strict.save() }
            XCTAssertTrue(error?.message.contains("could not fulfill a fault") == true, error?.message ?? "")
        }
    }
}
