import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class ConcurrencyTests: PersistenceTestCase {
    func testPerformRunsOnThePrivateQueue() throws {
        let background = container.newBackgroundContext()
        let done = expectation(description: "performed")
        background.perform {
            XCTAssertFalse(Thread.isMainThread)
            XCTAssertTrue(background.isOnQueue)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }

    func testPerformAndWaitIsReentrant() throws {
        let background = container.newBackgroundContext()
        let value = background.performAndWait {
            background.performAndWait {
                background.performAndWait { 42 }
            }
        }
        XCTAssertEqual(value, 42)
        XCTAssertEqual(context.performAndWait { context.performAndWait { "main" } }, "main")
    }

    func testAsyncPerformReturnsAResult() async throws {
        let container = try makeContainer()
        let background = container.newBackgroundContext()
        let id = try await background.perform {
            let movie = Movie(context: background)
            movie.title = "Async"
            try background.save()
            return movie.objectID
        }
        XCTAssertFalse(id.isTemporaryID)
        let title = try await container.performBackgroundTask { context in
            (try context.existingObject(with: id) as? Movie)?.title
        }
        XCTAssertEqual(title, "Async")
    }

    func testErrorsComeOutOfAsyncPerform() async throws {
        let container = try makeContainer()
        let background = container.newBackgroundContext()
        do {
            try await background.perform {
                _ = Movie(context: background)
                try background.save()
            }
            XCTFail("expected a validation error")
        } catch let error as PersistenceError {
            XCTAssertEqual(error.coreDataCode, .validationMissingMandatoryProperty)
        }
    }

    /// Core Data's `perform(schedule:_:)` is `rethrows`: a block that cannot throw is awaited without `try`
    /// (this test would not compile if it needed one), and a throwing block's error comes out as it was thrown.
    func testAsyncPerformWithABlockThatCannotThrowIsAwaitedWithoutTry() async throws {
        let container = try makeContainer()
        let background = container.newBackgroundContext()
        let inserted = await background.perform {
            let movie = Movie(context: background)
            movie.title = "No try"
            return background.insertedObjects.count
        }
        XCTAssertEqual(inserted, 1)
        await background.perform(schedule: .enqueued) { background.rollback() }
        let left = await background.perform { background.hasChanges }
        XCTAssertFalse(left)

        struct Refused: Error { let reason: String }
        do {
            try await background.perform { () throws(Refused) in throw Refused(reason: "read-only") }
            XCTFail("the block's error must come out")
        } catch {
            XCTAssertEqual(error.reason, "read-only", "the block's own error, still typed")
        }
    }

    /// `performBackgroundTask`'s `async` form is `rethrows`-like too: no `try` when the block cannot throw.
    func testAsyncBackgroundTaskWithABlockThatCannotThrowIsAwaitedWithoutTry() async throws {
        let container = try makeContainer()
        let counts = await container.performBackgroundTask { context in
            _ = Movie(context: context)
            return (context.insertedObjects.count, context.concurrencyType == .privateQueueConcurrencyType)
        }
        XCTAssertEqual(counts.0, 1)
        XCTAssertTrue(counts.1, "the block runs on a new private-queue context")

        struct Refused: Error { let reason: String }
        do {
            try await container.performBackgroundTask { _ throws(Refused) in throw Refused(reason: "offline") }
            XCTFail("the block's error must come out")
        } catch {
            XCTAssertEqual(error.reason, "offline", "the block's own error, still typed")
        }
    }

    func testManyBackgroundContextsSaveWithoutLosingAnything() throws {
        let group = DispatchGroup()
        for worker in 0..<8 {
            let background = container.newBackgroundContext()
            group.enter()
            background.perform {
                defer { group.leave() }
                for number in 0..<50 {
                    let movie = Movie(context: background)
                    movie.title = "w\(worker)-\(number)"
                    do { try background.save() } catch { XCTFail("\(error)") }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(try storedCount("Movie"), 400)
    }

    func testPerformBackgroundTaskWithCallback() throws {
        let saved = expectation(description: "saved")
        container.performBackgroundTask { context in
            let movie = Movie(context: context)
            movie.title = "Background"
            do { try context.save() } catch { XCTFail("\(error)") }
            saved.fulfill()
        }
        wait(for: [saved], timeout: 5)
        XCTAssertEqual(try context.fetch(Movie.fetchRequest()).map(\.title), ["Background"])
    }
}
