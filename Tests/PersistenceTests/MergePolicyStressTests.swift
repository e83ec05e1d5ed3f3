import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Eight background contexts save concurrently, on five shared movies, once per merge policy. Each save increments
/// the `year` of one shared movie (read, add one, write) and inserts one log row (a Scene). What each policy promises:
///
/// - every policy: every log row survives (inserts never conflict), the store passes SQLite's integrity check, and
///   each shared movie's year is a value some save really wrote;
/// - `.error`: a conflicting save fails with 133020 and changes nothing; the worker refreshes and retries, so no
///   increment is lost: the years add up to exactly the number of saves;
/// - the other four: no save fails; conflicts are resolved by the policy, which may drop increments (store trump,
///   rollback) or overwrite them (object trump, overwrite), so the years add up to at most the number of saves.
///
/// The interleaving all of this needs is a save made from a stale snapshot: two contexts read the same movie, one
/// saves, then the other does. Rather than hoping for it from a great many saves, the workers go in rounds: each
/// picks a movie and changes it, all of them wait at a barrier, then all save at once (in whatever order the
/// threads run). Eight workers on five movies means every round at least two workers hold the same movie from
/// before anyone saved, so whichever of them saves later saves a stale snapshot: every round has a conflict. The
/// test checks that they happened: under `.error` at least one 133020 per round, and under the other policies at
/// least one lost increment (a resolved conflict keeps only one of the two increments, whichever side wins), which
/// nothing but a conflict can cause.
final class MergePolicyStressTests: PersistenceTestCase {
    private let workers = 8
    private let rounds = 40
    private let sharedCount = 5

    private func run(_ policy: MergePolicy) throws {
        var shared: [ManagedObjectID] = []
        for index in 0..<sharedCount {
            let movie = makeMovie("Shared \(index)", year: 0)
            try context.obtainPermanentIDs(for: [movie])
            shared.append(movie.objectID)
        }
        try context.save()

        let sharedIDs = shared
        let (rounds, sharedCount) = (self.rounds, self.sharedCount)
        let failures = Counter()
        let conflictsSeen = Counter()
        let barrier = Barrier(parties: workers)
        let group = DispatchGroup()
        for worker in 0..<workers {
            let background = container.newBackgroundContext()
            background.mergePolicy = policy
            group.enter()
            background.perform {
                defer { group.leave() }
                var generator = SystemRandomNumberGenerator()
                for round in 0..<rounds {
                    let id = sharedIDs[Int.random(in: 0..<sharedCount, using: &generator)]
                    guard let movie = try? background.existingObject(with: id) as? Movie else {
                        failures.add()
                        barrier.arrive()
                        continue
                    }
                    movie.year += 1
                    let entry = Scene(context: background)
                    entry.number = worker * 10_000 + round
                    // Every worker holds its change before any of this round's saves.
                    barrier.arrive()
                    while true {
                        do {
                            try background.save()
                            break
                        } catch let error as PersistenceError where error.coreDataCode == .managedObjectMerge && policy == .error {
                            conflictsSeen.add()
                            background.rollback()
                            background.refresh(movie, mergeChanges: false)
                            movie.year += 1
                            let entry = Scene(context: background)
                            entry.number = worker * 10_000 + round
                        } catch {
                            failures.add()
                            break
                        }
                    }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success, "\(policy): the workers did not finish")
        XCTAssertEqual(failures.value, 0, "\(policy): unexpected failures")

        let saves = workers * rounds
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            XCTAssertEqual(try reader.count(for: Scene.fetchRequest()), saves, "\(policy): a log row was lost")
            let years = try shared.map { try XCTUnwrap(reader.existingObject(with: $0) as? Movie).year }
            let total = years.reduce(0, +)
            if policy == .error {
                XCTAssertEqual(total, saves, "\(policy): an increment was lost")
                XCTAssertGreaterThanOrEqual(conflictsSeen.value, rounds, "every round should have produced a conflict")
            } else {
                XCTAssertLessThan(total, saves, "\(policy): no increment was lost, so no conflict was resolved: the test proved nothing")
                XCTAssertTrue(years.allSatisfy { $0 >= 1 && $0 <= saves }, "\(policy): \(years)")
            }
        }
        let check = try container.persistentStoreCoordinator.withStore { try $0.connection.query("PRAGMA integrity_check") }
        XCTAssertEqual(check.first, [.text("ok")], "\(policy)")
    }

    func testErrorPolicyWithRetriesLosesNothing() throws { try run(.error) }
    func testStoreTrumpNeverFails() throws { try run(.mergeByPropertyStoreTrump) }
    func testObjectTrumpNeverFails() throws { try run(.mergeByPropertyObjectTrump) }
    func testOverwriteNeverFails() throws { try run(.overwrite) }
    func testRollbackNeverFails() throws { try run(.rollback) }
}

/// A thread-safe tally.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A reusable barrier: each call to ``arrive()`` waits until `parties` threads have arrived in the same round.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var waiting = 0
    private var generation = 0

    init(parties: Int) { self.parties = parties }

    func arrive() {
        condition.lock()
        defer { condition.unlock() }
        let mine = generation
        waiting += 1
        if waiting == parties {
            waiting = 0
            generation += 1
            condition.broadcast()
            return
        }
        while generation == mine { condition.wait() }
    }
}
