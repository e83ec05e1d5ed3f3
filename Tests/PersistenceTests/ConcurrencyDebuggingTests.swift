import Foundation
@_spi(TestHarness) @_spi(ConcurrencyDebugging) @testable import Persistence
import XCTest

final class ConcurrencyDebuggingTests: PersistenceTestCase {
    /// Runs `body` with checking on and returns the violations it caused.
    private func violations(_ body: () throws -> Void) rethrows -> [ConcurrencyViolation] {
        let log = ViolationLog()
        try ConcurrencyDebugging.withViolationHandler({ log.append($0) }, body)
        return log.all
    }

    func testUsingAPrivateContextOffItsQueueIsReported() throws {
        let background = container.newBackgroundContext()
        background.name = "importer"
        let found = try violations {
            _ = try background.fetch(Movie.fetchRequest())   // not inside perform
        }
        XCTAssertEqual(found.map(\.operation), ["fetch(_:)"])
        XCTAssertEqual(found.first?.context, "importer")
        XCTAssertTrue(found.first?.onMainThread == true)
    }

    func testReadingAContextsStateOffItsQueueIsReported() throws {
        let background = container.newBackgroundContext()
        let found = violations {
            _ = background.hasChanges
            _ = background.insertedObjects
            _ = background.updatedObjects
            _ = background.deletedObjects
            _ = background.registeredObjects
        }
        XCTAssertEqual(found.map(\.operation),
                       ["hasChanges", "insertedObjects", "updatedObjects", "deletedObjects", "registeredObjects"])
        XCTAssertTrue(violations { background.performAndWait { _ = background.hasChanges } }.isEmpty)
    }

    func testAnObjectReadOnTheWrongQueueIsReported() throws {
        let background = container.newBackgroundContext()
        let movie = background.performAndWait { () -> Movie in
            let movie = Movie(context: background)
            movie.title = "Leaked"
            return movie
        }
        let found = violations { _ = movie.title }
        XCTAssertEqual(found.map(\.operation), ["Movie.title"])
    }

    func testCorrectUseReportsNothing() throws {
        let background = container.newBackgroundContext()
        let found = try violations {
            try background.performAndWait {
                let movie = Movie(context: background)
                movie.title = "Fine"
                try background.save()
                _ = try background.fetch(Movie.fetchRequest()).map(\.title)
            }
            makeMovie("Main")       // the view context, on the main thread
            try context.save()
        }
        XCTAssertTrue(found.isEmpty, "\(found)")
    }

    func testTheViewContextUsedFromABackgroundThreadIsReported() throws {
        let done = expectation(description: "background")
        let log = ViolationLog()
        let viewContext = context
        ConcurrencyDebugging.isEnabled = true
        ConcurrencyDebugging.violationHandler = { log.append($0) }
        defer {
            ConcurrencyDebugging.isEnabled = false
            ConcurrencyDebugging.violationHandler = nil
        }
        DispatchQueue.global().async {
            _ = try? viewContext.count(for: Movie.fetchRequest())
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.all.map(\.operation), ["count(for:)"])
        XCTAssertEqual(log.all.first?.onMainThread, false)
    }

    func testCheckingIsOffByDefault() throws {
        XCTAssertFalse(ConcurrencyDebugging.isEnabled)
        let background = container.newBackgroundContext()
        XCTAssertNoThrow(try background.fetch(Movie.fetchRequest()), "no checking, no trap")
    }
}

/// Violations collected by a handler (which may run on any thread).
final class ViolationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var violations: [ConcurrencyViolation] = []

    func append(_ violation: ConcurrencyViolation) { lock.withLock { violations.append(violation) } }
    var all: [ConcurrencyViolation] { lock.withLock { violations } }
}
