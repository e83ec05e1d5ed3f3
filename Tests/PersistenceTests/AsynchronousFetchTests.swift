import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class AsynchronousFetchTests: PersistenceTestCase {
    /// `count` saved movies, "Movie 0000"….
    private func saveMovies(_ count: Int) throws {
        let request = BatchInsertRequest(entityName: "Movie", objects: (0..<count).map {
            ["title": String(format: "Movie %04d", $0), "year": 1900 + $0 % 100]
        })
        try context.execute(request)
    }

    /// Executes `request` as app code does, through the one `execute(_:)`, and casts its result, as on Apple.
    private func start<Result>(
        _ request: AsynchronousFetchRequest<Result>, in executing: ManagedObjectContext? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> AsynchronousFetchResult<Result> {
        let result = try (executing ?? context).execute(request)
        return try XCTUnwrap(result as? AsynchronousFetchResult<Result>,
                             "execute(_:) returns the request's result class", file: file, line: line)
    }

    private func moviesRequest(_ format: String? = nil, _ arguments: Any...) throws -> FetchRequest<Movie> {
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        if let format { request.predicate = FetchPredicate(format: format, argumentArray: arguments) }
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        return request
    }

    func testTheCompletionRunsOnTheContextsQueueWithRegisteredObjects() throws {
        try saveMovies(10)
        let background = container.newBackgroundContext()
        let done = expectation(description: "completion")
        let report = AsyncReport()
        try background.performAndWait {
            let request = AsynchronousFetchRequest(fetchRequest: try moviesRequest("year < %@", 1905)) { result in
                report.onQueue = background.isOnQueue
                let movies = result.finalResult ?? []
                report.titles = movies.map(\.title)
                report.registered = movies.allSatisfy { background.registeredObject(for: $0.objectID) === $0 }
                report.error = result.operationError
                done.fulfill()
            }
            let running = try start(request, in: background)
            XCTAssertNil(running.finalResult, "execute returns before the fetch is done")
            XCTAssertTrue(running.fetchRequest === request,
                          "the result hands back the asynchronous request, as Core Data's")
            XCTAssertTrue(running.managedObjectContext === background, "the result names the context that executed it")
        }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(report.onQueue)
        XCTAssertNil(report.error)
        XCTAssertEqual(report.titles, ["Movie 0000", "Movie 0001", "Movie 0002", "Movie 0003", "Movie 0004"])
        XCTAssertTrue(report.registered)
    }

    func testAMainQueueContextGetsItsCompletionOnTheMainThread() throws {
        try saveMovies(3)
        let done = expectation(description: "completion")
        let request = AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { result in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertEqual(result.finalResult?.map(\.title), ["Movie 0000", "Movie 0001", "Movie 0002"])
            done.fulfill()
        }
        let running = try start(request)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(running.finalResult?.count, 3, "the returned result is the one the completion got")
        XCTAssertNil(running.progress, "no progress was current while the request executed: none is handed out")
        XCTAssertEqual(running.readProgress.totalUnitCount, 3)
        XCTAssertEqual(running.readProgress.completedUnitCount, 3)
        XCTAssertEqual(context.registeredObjects.count, 3)
    }

    func testAProgressIsHandedOutOnlyUnderACurrentProgressAndIsItsChild() throws {
        try saveMovies(300)
        let done = expectation(description: "completion")
        let parent = Progress(totalUnitCount: 1)
        parent.becomeCurrent(withPendingUnitCount: 1)
        let running = try start(AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { _ in done.fulfill() })
        parent.resignCurrent()
        wait(for: [done], timeout: 10)
        let progress = try XCTUnwrap(running.progress, "a progress was current: the result hands out the fetch's")
        XCTAssertTrue(progress === running.readProgress)
        XCTAssertEqual(progress.completedUnitCount, 300)
        XCTAssertEqual(parent.fractionCompleted, 1, accuracy: 0.0001, "the fetch's progress moved the current one")

        // Made current on another thread, a progress is not current here.
        let other = Progress(totalUnitCount: 1)
        let madeCurrent = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            other.becomeCurrent(withPendingUnitCount: 1)
            madeCurrent.signal()
            release.wait()
            other.resignCurrent()
        }
        madeCurrent.wait()
        defer { release.signal() }
        let again = expectation(description: "second completion")
        let second = try start(AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { _ in again.fulfill() })
        wait(for: [again], timeout: 10)
        XCTAssertNil(second.progress)
    }

    /// Five saved movies fetched asynchronously: `start` executes the request while the test holds the store, so
    /// the background read cannot begin before whatever `start` does to cancel it; the fetch must end cancelled,
    /// having registered nothing.
    private func assertCancelledBeforeTheReadStarts(
        _ start: (AsynchronousFetchRequest<Movie>) throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try saveMovies(5)
        let done = expectation(description: "completion")
        let report = AsyncReport()
        let request = AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { result in
            report.error = result.operationError
            done.fulfill()
        }
        try container.persistentStoreCoordinator.withStore { _ in try start(request) }
        wait(for: [done], timeout: 10)
        XCTAssertEqual((report.error as? PersistenceError)?.coreDataCode, .userCancelled, file: file, line: line)
        XCTAssertTrue(context.registeredObjects.isEmpty, file: file, line: line)
    }

    func testCancellingTheCurrentProgressCancelsTheFetch() throws {
        let parent = Progress(totalUnitCount: 1)
        try assertCancelledBeforeTheReadStarts { request in
            parent.becomeCurrent(withPendingUnitCount: 1)
            _ = try context.execute(request)
            parent.resignCurrent()
            parent.cancel()
        }
    }

    func testProgressCountsTheRowsAsTheyStream() throws {
        try saveMovies(1_000)
        let seen = ProgressLog()
        let done = expectation(description: "completion")
        let request = AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { _ in done.fulfill() }
        request.progressObserver = { progress in seen.record(progress.completedUnitCount, of: progress.totalUnitCount) }
        let parent = Progress(totalUnitCount: 1)
        parent.becomeCurrent(withPendingUnitCount: 1)
        let running = try start(request)
        parent.resignCurrent()
        wait(for: [done], timeout: 10)

        let updates = seen.updates
        XCTAssertGreaterThan(updates.count, 10, "updates arrive while rows stream, not once at the end")
        XCTAssertTrue(updates.allSatisfy { $0.total == 1_000 }, "the total is known before the first row")
        XCTAssertEqual(updates.map(\.completed), updates.map(\.completed).sorted())
        XCTAssertLessThan(updates.first?.completed ?? 0, 1_000)
        XCTAssertEqual(updates.last?.completed, 1_000)
        XCTAssertEqual(running.finalResult?.count, 1_000)
        XCTAssertEqual(try XCTUnwrap(running.progress).fractionCompleted, 1, accuracy: 0.0001)
    }

    func testCancellingWhileRowsStreamGivesAnErrorAndNoObjects() throws {
        try saveMovies(1_000)
        let done = expectation(description: "completion")
        let report = AsyncReport()
        let request = AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { result in
            report.error = result.operationError
            report.titles = result.finalResult?.map(\.title)
            done.fulfill()
        }
        let stoppedAt = ProgressLog()
        request.progressObserver = { progress in
            if progress.completedUnitCount >= 128 && !progress.isCancelled {
                stoppedAt.record(progress.completedUnitCount, of: progress.totalUnitCount)
                progress.cancel()
            }
        }
        let running = try start(request)
        wait(for: [done], timeout: 10)

        XCTAssertEqual((report.error as? PersistenceError)?.coreDataCode, .userCancelled)
        XCTAssertEqual((report.error as? PersistenceError)?.coreDataCode.rawValue, 3072)
        XCTAssertNil(report.titles, "no partial results")
        XCTAssertNil(running.finalResult)
        XCTAssertTrue(context.registeredObjects.isEmpty, "no object was registered")
        XCTAssertEqual(stoppedAt.updates.count, 1)
        XCTAssertLessThan(running.readProgress.completedUnitCount, 1_000, "reading stopped early")
    }

    func testCancellingBeforeTheReadStartsReadsNothing() throws {
        try assertCancelledBeforeTheReadStarts { request in
            try start(request).cancel()
        }
    }

    func testObjectIDResultsAndUnsavedChangesAsInAFetch() throws {
        try saveMovies(3)
        let fresh = makeMovie("Aardvark")
        let doomed = try XCTUnwrap(try context.fetch(try moviesRequest("title == %@", "Movie 0001")).first)
        context.delete(doomed)

        let idsDone = expectation(description: "ids")
        let idRequest = AsynchronousFetchRequest(fetchRequest: FetchRequest<ManagedObjectID>(entityName: "Movie")) { _ in idsDone.fulfill() }
        idRequest.fetchRequest.resultType = .managedObjectIDResultType
        idRequest.fetchRequest.includesPendingChanges = false
        let idResult = try start(idRequest)

        let objectsDone = expectation(description: "objects")
        let objectResult = try start(AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { _ in objectsDone.fulfill() })
        wait(for: [idsDone, objectsDone], timeout: 10)

        XCTAssertEqual(idResult.finalResult?.count, 3, "the store's rows only")
        XCTAssertEqual(objectResult.finalResult?.map(\.title), ["Aardvark", "Movie 0000", "Movie 0002"],
                       "the inserted movie appears and the deleted one does not, as with fetch(_:)")
        XCTAssertTrue(objectResult.finalResult?.first === fresh)
    }

    func testAPinnedContextReadsItsQueryGeneration() throws {
        try saveMovies(2)
        try context.setQueryGenerationFrom(.current)
        XCTAssertEqual(try context.fetch(try moviesRequest()).count, 2, "this read pins the context")
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            makeMovie("Later", in: writer)
            try writer.save()
        }
        let done = expectation(description: "completion")
        let running = try start(AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { _ in done.fulfill() })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(running.finalResult?.map(\.title), ["Movie 0000", "Movie 0001"], "the later save is not in the snapshot")
        XCTAssertEqual(try storedCount("Movie"), 3)

        // An asynchronous fetch is a read: it pins a context waiting for its next read.
        let other = container.newBackgroundContext()
        try other.performAndWait {
            try other.setQueryGenerationFrom(.current)
            try other.execute(AsynchronousFetchRequest(fetchRequest: try moviesRequest()))
            XCTAssertNotNil(other.queryGenerationToken)
        }
    }

    func testBadRequestsThrowAtOnce() throws {
        assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(AsynchronousFetchRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Film")))
        }
        assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(AsynchronousFetchRequest(fetchRequest: try moviesRequest("titel == %@", "x")))
        }
        let dictionaries = FetchRequest<NSDictionary>(entityName: "Movie")
        dictionaries.resultType = .dictionaryResultType
        assertPersistenceError(.coreData) { try context.execute(AsynchronousFetchRequest(fetchRequest: dictionaries)) }
        assertPersistenceError(.coreData) { try context.execute(AsynchronousFetchRequest(fetchRequest: FetchRequest<Director>(entityName: "Movie"))) }
    }

    func testAStoreErrorArrivesAsTheOperationError() throws {
        try saveMovies(3)
        let done = expectation(description: "completion")
        let report = AsyncReport()
        let request = AsynchronousFetchRequest(fetchRequest: try moviesRequest()) { result in
            report.error = result.operationError
            report.titles = result.finalResult?.map(\.title)
            done.fulfill()
        }
        // The request is sound when it starts; the table disappears before the background read begins.
        try container.persistentStoreCoordinator.withStore { store in
            let untyped: any PersistentStoreRequest = request
            XCTAssertTrue(try context.execute(untyped) is AsynchronousFetchResult<Movie>)
            try store.connection.execute("DROP TABLE ZMOVIE")
        }
        wait(for: [done], timeout: 10)
        let error = try XCTUnwrap(report.error as? PersistenceError)
        XCTAssertTrue(error.message.contains("no such table: ZMOVIE"), error.message)
        XCTAssertNotNil(error.sql)
        XCTAssertNil(report.titles)
    }
}

/// What a completion block saw, read back on the test's thread after the expectation is met.
private final class AsyncReport: @unchecked Sendable {
    var onQueue = false
    var titles: [String]?
    var registered = false
    var error: (any Error)?
}

/// Progress updates seen on the reading queue.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [(completed: Int64, total: Int64)] = []

    func record(_ completed: Int64, of total: Int64) { lock.withLock { seen.append((completed, total)) } }
    var updates: [(completed: Int64, total: Int64)] { lock.withLock { seen } }
}
