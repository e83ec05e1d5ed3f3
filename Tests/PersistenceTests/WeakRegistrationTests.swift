import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Registration as in Core Data (`retainsRegisteredObjects` false by default): a context holds objects with pending
/// changes strongly and the others only while something else holds them. Every rule of the registry's README that
/// concerns letting objects go is guarded here.
final class WeakRegistrationTests: PersistenceTestCase {
    /// Saves `count` movies (each with a director) from another context; returns their IDs in title order.
    @discardableResult
    private func seedMovies(_ count: Int = 3) throws -> [ManagedObjectID] {
        let writer = container.newBackgroundContext()
        return try writer.performAndWait {
            let director = Director(context: writer)
            director.name = "Varda"
            let movies = (0..<count).map { index -> Movie in
                let movie = makeMovie(String(format: "Film %03d", index), in: writer)
                movie.director = director
                return movie
            }
            try writer.save()
            return movies.map(\.objectID)
        }
    }

    private func fetchMovies(in context: ManagedObjectContext) throws -> [Movie] {
        try Self.fetchMovies(in: context)
    }

    /// Fetches through the `async` form of `perform`, keeping a weak reference to the first movie.
    private static func fetchFirstAsynchronously(in context: ManagedObjectContext, into box: WeakBox,
                                                 then done: XCTestExpectation) {
        Task.detached {
            let first: ManagedObjectID? = await context.perform(schedule: .enqueued) {
                let movie = try? fetchMovies(in: context).first
                box.object = movie
                return movie?.objectID
            }
            XCTAssertNotNil(first)
            done.fulfill()
        }
    }

    private static func fetchMovies(in context: ManagedObjectContext) throws -> [Movie] {
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        return try context.fetch(request)
    }

    // MARK: - Rule 1: objects nobody holds are gone

    func testAnUnchangedObjectNobodyHoldsLeavesTheRegistryAndAskingAgainMakesANewFault() throws {
        let ids = try seedMovies()
        weak var dropped: Movie?
        var kept: Movie?
        try {
            let movies = try fetchMovies(in: context)
            XCTAssertEqual(movies.count, 3)
            kept = movies[1]
            dropped = movies[0]
            XCTAssertEqual(dropped?.title, "Film 000")
        }()
        // Nothing holds the first movie any more: the registry answers as Core Data's would, and lets go of it.
        XCTAssertNil(context.registeredObject(for: ids[0]))
        XCTAssertNil(dropped, "the registry let go of the object as it answered")
        XCTAssertEqual(Set(context.registeredObjects.map(\.objectID)), [ids[1]])
        XCTAssertTrue(context.registeredObject(for: ids[1]) === kept)
        let again = context.object(with: ids[0])
        XCTAssertTrue(again.isFault, "a new fault for an ID whose object went away")
        XCTAssertEqual((again as? Movie)?.title, "Film 000")
        XCTAssertTrue(context.object(with: ids[1]) === kept)
    }

    func testAFetchMakesANewObjectForARowWhoseObjectNobodyHolds() throws {
        try seedMovies(1)
        weak var first: Movie?
        let background = container.newBackgroundContext()
        try background.performAndWait {
            try { first = try fetchMovies(in: background).first }()
            XCTAssertNotNil(first, "still registered: nothing swept yet inside the block")
            let second = try XCTUnwrap(try fetchMovies(in: background).first)
            XCTAssertNil(first, "the fetch let go of the object only the registry held")
            XCTAssertEqual(second.title, "Film 000")
        }
    }

    // MARK: - Rule 2: pending changes are held strongly until saved or rolled back

    func testInsertedUpdatedAndDeletedObjectsAreHeldUntilSavedOrRolledBack() throws {
        let ids = try seedMovies(3)
        weak var inserted: Movie?
        weak var updated: Movie?
        weak var deleted: Movie?
        try {
            inserted = makeMovie("New")
            let movies = try fetchMovies(in: context)
            movies[0].year = 1962
            updated = movies[0]
            context.delete(movies[1])
            deleted = movies[1]
        }()
        XCTAssertNotNil(inserted)
        XCTAssertNotNil(updated)
        XCTAssertNotNil(deleted)
        XCTAssertEqual(context.registeredObjects.count, 3, "the three changed objects, not the unchanged one")
        XCTAssertNil(context.registeredObject(for: ids[2]))
        XCTAssertTrue(context.registeredObject(for: ids[0]) === updated)
        try context.save()
        XCTAssertTrue(context.registeredObjects.isEmpty, "saved, nothing holds them")
        XCTAssertNil(inserted)
        XCTAssertNil(updated)
        XCTAssertNil(deleted)

        weak var changed: Movie?
        try {
            let movie = try XCTUnwrap(try fetchMovies(in: context).first)
            movie.year = 1999
            changed = movie
        }()
        XCTAssertTrue(context.registeredObjects.contains { $0 === changed })
        context.rollback()
        XCTAssertTrue(context.registeredObjects.isEmpty, "rolled back, nothing holds it")
        XCTAssertNil(changed)
    }

    func testRetainsRegisteredObjectsKeepsEveryObjectUntilTurnedOff() throws {
        let ids = try seedMovies(2)
        XCTAssertFalse(context.retainsRegisteredObjects, "Core Data's default")
        context.retainsRegisteredObjects = true
        weak var held: Movie?
        try { held = try fetchMovies(in: context).first }()
        XCTAssertEqual(context.registeredObjects.count, 2)
        XCTAssertTrue(context.registeredObject(for: ids[0]) === held)
        XCTAssertTrue(context.object(with: ids[0]) === held)
        context.retainsRegisteredObjects = false
        XCTAssertNil(context.registeredObject(for: ids[0]))
        XCTAssertTrue(context.registeredObjects.isEmpty)
        XCTAssertNil(held)
    }

    // MARK: - Rule 3: relationships hold their objects; letting go reaches a fixed point

    func testAnObjectHeldOnlyThroughAnotherGoesWithIt() throws {
        let ids = try seedMovies(1)
        weak var movie: Movie?
        weak var director: Director?
        var directorID: ManagedObjectID?
        try {
            let fetched = try XCTUnwrap(try fetchMovies(in: context).first)
            director = fetched.director
            directorID = director?.objectID
            movie = fetched
        }()
        // The movie holds its director: both are registered while the movie is held by nothing but the registry —
        // and both go once the registry lets go of the movie.
        XCTAssertNil(context.registeredObject(for: ids[0]))
        XCTAssertNil(movie)
        XCTAssertNil(director, "letting go of the movie left its director held by the registry alone")
        XCTAssertNil(context.registeredObject(for: try XCTUnwrap(directorID)))
        XCTAssertTrue(context.registeredObjects.isEmpty)
    }

    func testARealizedRelationshipCycleStaysUntilRefreshed() throws {
        let ids = try seedMovies(2)
        weak var movie: Movie?
        weak var director: Director?
        try {
            let fetched = try XCTUnwrap(try fetchMovies(in: context).first)
            let who = try XCTUnwrap(fetched.director)
            // Reading both sides: the movie holds the director and the director's list holds the movie.
            XCTAssertEqual(who.movies.count, 2)
            movie = fetched
            director = who
        }()
        XCTAssertEqual(context.registeredObjects.count, 3, "the cycle keeps the director and both movies")
        XCTAssertNotNil(movie)
        // Apple's way out of a retain cycle: refresh(_:mergeChanges: false) turns an object into a fault.
        context.refresh(try XCTUnwrap(director), mergeChanges: false)
        // The refreshed director is held for the did-change notification that reports it (refreshed objects).
        context.processPendingChanges()
        XCTAssertTrue(context.registeredObjects.isEmpty)
        XCTAssertNil(movie)
        XCTAssertNil(director)
        XCTAssertNil(context.registeredObject(for: ids[0]))
    }

    // MARK: - Rule 4: drain points give the memory back

    func testTheEndOfEachPerformBlockAndTheNextPerformAndWaitLetGoOfTheObjectsRegistered() throws {
        try seedMovies(200)
        let background = container.newBackgroundContext()
        weak var fromWait: Movie?
        try background.performAndWait { fromWait = try fetchMovies(in: background).first }
        // Apple documents an autorelease pool for perform(_:) only: a performAndWait block's objects wait for the
        // next drain point, and the next block run on the queue is one.
        XCTAssertNotNil(fromWait, "performAndWait drains nothing when it ends, as Core Data's")
        background.performAndWait {}
        XCTAssertNil(fromWait, "freed when the next block started, with nobody asking the registry")
        let fromPerform = WeakBox()
        let done = expectation(description: "perform")
        background.perform {
            fromPerform.object = try? Self.fetchMovies(in: background).first
        }
        // Queued behind the first block, so it runs once that block (and its sweep) is over.
        background.perform { done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(fromPerform.wasSet)
        XCTAssertNil(fromPerform.object, "freed when the perform block ended")
        let fromAsync = WeakBox()
        let async = expectation(description: "async perform")
        Self.fetchFirstAsynchronously(in: background, into: fromAsync, then: async)
        wait(for: [async], timeout: 10)
        XCTAssertTrue(fromAsync.wasSet)
        XCTAssertNil(fromAsync.object, "freed when the async perform block ended")
        // A block inside another leaves the sweep to the outer one.
        try background.performAndWait {
            weak var inner: Movie?
            try background.performAndWait { inner = try fetchMovies(in: background).first }
            XCTAssertNotNil(inner, "not swept yet: the outer block is still running")
        }
    }

    func testTheMainQueueContextLetsGoAtTheEndOfTheEventOrOnProcessPendingChanges() throws {
        try seedMovies(2)
        weak var movie: Movie?
        try { movie = try fetchMovies(in: context).first }()
        let event = expectation(description: "next main-queue event")
        DispatchQueue.main.async { event.fulfill() }
        wait(for: [event], timeout: 10)
        XCTAssertNil(movie, "freed at the end of the main-queue event that fetched it")
        try { movie = try fetchMovies(in: context).first }()
        context.processPendingChanges()
        XCTAssertNil(movie, "freed by processPendingChanges()")
    }

    // MARK: - Rule 5: merges and refreshes see only what somebody holds

    func testAMergeRegistersInsertedObjectsOnlyWhileSomebodyHoldsThem() throws {
        let writer = container.newBackgroundContext()
        let view = container.newBackgroundContext()
        let observer = MergeObserver(context: view)
        try writer.performAndWait {
            for index in 0..<5 { makeMovie("Merged \(index)", in: writer) }
            try writer.save()
        }
        let notification = try XCTUnwrap(observer.lastSave(of: writer))
        let counts = view.performAndWait { () -> (during: Int, after: Int) in
            view.mergeChanges(fromContextDidSave: notification)
            let during = observer.insertedCount
            return (during, view.registeredObjects.count)
        }
        XCTAssertEqual(counts.during, 5, "observers are handed the merged objects")
        XCTAssertEqual(counts.after, 0, "nobody holds them: they are not registered")
        observer.keeps = true
        try writer.performAndWait {
            makeMovie("Kept", in: writer)
            try writer.save()
        }
        let held = try view.performAndWait { () -> Int in
            let note = try XCTUnwrap(observer.lastSave(of: writer))
            view.mergeChanges(fromContextDidSave: note)
            return view.registeredObjects.count
        }
        XCTAssertEqual(held, 1, "the observer holds the merged object, so it stays registered")
        observer.stop()
    }

    func testAMergedUpdateRefreshesOnlyObjectsSomebodyHolds() throws {
        let ids = try seedMovies(2)
        let view = container.newBackgroundContext()
        func mergeUpdates() -> [ManagedObjectID] {
            let reported = Collected()
            let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                               object: view, queue: nil) { note in
                let set = note.userInfo?[ManagedObjectContext.NotificationKey.refreshedObjects.rawValue] as? Set<ManagedObject>
                reported.ids += (set ?? []).map(\.objectID)
            }
            defer { NotificationCenter.default.removeObserver(token) }
            view.merge(ContextDidSave(insertedObjectIDs: [], updatedObjectIDs: Set(ids), deletedObjectIDs: []))
            return reported.ids
        }
        let refreshed = try view.performAndWait { () -> [ManagedObjectID] in
            try { _ = try fetchMovies(in: view) }()
            return mergeUpdates()
        }
        XCTAssertEqual(refreshed, [], "nothing held: nothing to refresh")
        let held = try view.performAndWait { () -> [ManagedObjectID] in
            let kept = try fetchMovies(in: view)[1]
            let reported = mergeUpdates()
            withExtendedLifetime(kept) {}
            return reported
        }
        XCTAssertEqual(held, [ids[1]], "only the held movie is refreshed and reported")
    }

    func testResetReportsOnlyTheObjectsSomebodyHeld() throws {
        let ids = try seedMovies(3)
        let kept = try fetchMovies(in: context)[2]
        let forgotten = Collected()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                           object: context, queue: nil) { note in
            forgotten.ids = note.userInfo?[ManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue] as? [ManagedObjectID] ?? []
        }
        defer { NotificationCenter.default.removeObserver(token) }
        context.reset()
        XCTAssertEqual(forgotten.ids, [ids[2]])
        XCTAssertNil(kept.managedObjectContext)
    }

    // MARK: - Rule 6: the last reference may go on any thread

    func testObjectsReleasedOnOtherThreadsAreLetGoOfOnTheContextsQueueOnly() throws {
        try seedMovies(500)
        let background = container.newBackgroundContext()
        for _ in 0..<20 {
            let box = ObjectBox(try background.performAndWait { try fetchMovies(in: background) })
            XCTAssertEqual(box.count, 500)
            let group = DispatchGroup()
            // Other threads drop their shares of the objects while the context's queue sweeps and fetches again.
            for part in 0..<4 {
                DispatchQueue.global().async(group: group) { box.drop(part: part, of: 4) }
            }
            background.perform {
                _ = background.registeredObjects.count
                _ = try? Self.fetchMovies(in: background).count
            }
            group.wait()
            box.dropAll()
        }
        let left = background.performAndWait { background.registeredObjects.count }
        XCTAssertEqual(left, 0, "every object was let go of once nobody held it")
    }
}

/// IDs an observer collects.
private final class Collected: @unchecked Sendable {
    var ids: [ManagedObjectID] = []
}

/// A weak reference a block on another queue sets.
private final class WeakBox: @unchecked Sendable {
    private(set) var wasSet = false
    weak var object: ManagedObject? {
        didSet { wasSet = true }
    }
}

/// A fetch result handed to other threads, which drop it share by share.
private final class ObjectBox: @unchecked Sendable {
    private let lock = NSLock()
    private var shares: [[Movie]]

    init(_ objects: [Movie]) {
        shares = (0..<4).map { part in objects.enumerated().filter { $0.offset % 4 == part }.map(\.element) }
    }

    var count: Int { lock.withLock { shares.reduce(0) { $0 + $1.count } } }

    func drop(part: Int, of total: Int) {
        let share = lock.withLock { () -> [Movie] in
            let share = shares[part]
            shares[part] = []
            return share
        }
        // The last references go here, off the context's queue.
        withExtendedLifetime(share) {}
    }

    func dropAll() { lock.withLock { shares = [] } }
}

/// Counts (and, when asked, keeps) the objects a context's merges hand to observers.
private final class MergeObserver: @unchecked Sendable {
    private var tokens: [NSObjectProtocol] = []
    private(set) var insertedCount = 0
    var keeps = false
    private var kept: [ManagedObject] = []
    private var saves: [ObjectIdentifier: Notification] = [:]

    init(context: ManagedObjectContext) {
        tokens.append(NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                             object: context, queue: nil) { [unowned self] note in
            let inserted = note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject> ?? []
            insertedCount += inserted.count
            if keeps { kept += inserted }
        })
        tokens.append(NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                             object: nil, queue: nil) { [unowned self] note in
            if let sender = note.object as? ManagedObjectContext { saves[ObjectIdentifier(sender)] = note }
        })
    }

    func lastSave(of context: ManagedObjectContext) -> Notification? { saves[ObjectIdentifier(context)] }

    func stop() {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
        tokens = []
        kept = []
    }
}
