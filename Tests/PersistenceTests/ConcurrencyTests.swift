import Foundation
@testable import Persistence
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
            XCTAssertEqual(error.code, .validationMissingMandatoryProperty)
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
