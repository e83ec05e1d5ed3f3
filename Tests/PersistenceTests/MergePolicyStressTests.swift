import Foundation
@testable import Persistence
import XCTest

/// Eight background contexts × 500 saves on five shared movies, once per merge policy. Each save increments the
/// `year` of one shared movie (read, add one, write) and inserts one log row (a Scene). What each policy promises:
///
/// - every policy: every log row survives (8 × 500 rows: inserts never conflict), the store passes SQLite's
///   integrity check, and each shared movie's year is a value some save really wrote;
/// - `.error`: a conflicting save fails with 133020 and changes nothing; the worker refreshes and retries, so no
///   increment is lost: the years add up to exactly 8 × 500;
/// - the other four: no save fails; conflicts are resolved by the policy, which may drop increments (store trump,
///   rollback) or overwrite them (object trump, overwrite), so the years add up to at most 8 × 500.
final class MergePolicyStressTests: PersistenceTestCase {
    private let workers = 8
    private let savesPerWorker = 500
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
        let (savesPerWorker, sharedCount) = (self.savesPerWorker, self.sharedCount)
        let failures = Counter()
        let conflictsSeen = Counter()
        let group = DispatchGroup()
        for worker in 0..<workers {
            let background = container.newBackgroundContext()
            background.mergePolicy = policy
            group.enter()
            background.perform {
                defer { group.leave() }
                var generator = SystemRandomNumberGenerator()
                for number in 0..<savesPerWorker {
                    let id = sharedIDs[Int.random(in: 0..<sharedCount, using: &generator)]
                    while true {
                        guard let movie = try? background.existingObject(with: id) as? Movie else {
                            failures.add()
                            break
                        }
                        movie.year += 1
                        let entry = Scene(context: background)
                        entry.number = worker * 10_000 + number
                        do {
                            try background.save()
                            break
                        } catch let error as PersistenceError where error.code == .managedObjectMerge && policy == .error {
                            conflictsSeen.add()
                            background.rollback()
                            background.refresh(movie, mergeChanges: false)
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

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            XCTAssertEqual(try reader.count(for: Scene.fetchRequest()), workers * savesPerWorker, "\(policy): a log row was lost")
            let years = try shared.map { try XCTUnwrap(reader.existingObject(with: $0) as? Movie).year }
            let total = years.reduce(0, +)
            if policy == .error {
                XCTAssertEqual(total, workers * savesPerWorker, "\(policy): an increment was lost")
                XCTAssertGreaterThan(conflictsSeen.value, 0, "the test should have produced conflicts")
            } else {
                XCTAssertLessThanOrEqual(total, workers * savesPerWorker, "\(policy)")
                XCTAssertTrue(years.allSatisfy { $0 >= 1 && $0 <= workers * savesPerWorker }, "\(policy): \(years)")
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
