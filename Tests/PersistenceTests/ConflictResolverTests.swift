import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// The merge-policy rules on their own: a ``ConflictResolver`` applied to a ``SavePlan``, without a save around it.
final class ConflictResolverTests: PersistenceTestCase {
    private func duplicatePlan() -> (plan: SavePlan, movies: [Movie]) {
        let movies = (0..<3).map { _ in makeMovie("Heat", year: 1995) }
        return (SavePlan(inserted: movies, updated: [], deleted: []), movies)
    }

    func testNewDuplicatesKeepTheLastUnderObjectTrumpAndTheFirstUnderStoreTrump() {
        var (plan, movies) = duplicatePlan()
        ConflictResolver(policy: .mergeByPropertyObjectTrump).resolveDuplicateInsertions(in: &plan)
        XCTAssertEqual(plan.inserted.map(ObjectIdentifier.init), [ObjectIdentifier(movies[2])])
        XCTAssertEqual(plan.dropped.map(ObjectIdentifier.init), movies[0...1].map(ObjectIdentifier.init))

        (plan, movies) = duplicatePlan()
        ConflictResolver(policy: .mergeByPropertyStoreTrump).resolveDuplicateInsertions(in: &plan)
        XCTAssertEqual(plan.inserted.map(ObjectIdentifier.init), [ObjectIdentifier(movies[0])])
        XCTAssertEqual(plan.dropped.count, 2)
    }

    func testTheErrorPolicyLeavesDuplicatesForValidationToReport() {
        var (plan, _) = duplicatePlan()
        ConflictResolver(policy: .error).resolveDuplicateInsertions(in: &plan)
        XCTAssertEqual(plan.inserted.count, 3)
        XCTAssertTrue(plan.dropped.isEmpty)
    }

    /// Saves `movie`, lets another context change its title, then changes its rating here.
    private func conflictingUpdate() throws -> Movie {
        let movie = makeMovie("Alien", year: 1979)
        try context.save()
        try changeElsewhere(movie.objectID) { $0.title = "Alien (director's cut)" }
        movie.rating = 8
        return movie
    }

    /// The conflicts the store finds for `plan`, in terms of its objects.
    private func versionConflicts(of plan: SavePlan) throws -> [ConflictResolver.VersionConflict] {
        let found = try container.persistentStoreCoordinator.withStore {
            try $0.versionConflicts(in: plan.storeRequest(probingConstraints: false))
        }
        return ConflictResolver.conflicts(found, [], in: plan).versions
    }

    func testTheStoreReportsAChangedRowWithItsVersionAndValues() throws {
        let movie = try conflictingUpdate()
        let found = try versionConflicts(of: SavePlan(inserted: [], updated: [movie], deleted: []))
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.object === movie)
        XCTAssertEqual(found.first?.version, movie.version + 1)
        let stored = try XCTUnwrap(found.first?.row)
        XCTAssertEqual(movie.conflictSnapshot(of: stored.slots)["title"] as? String, "Alien (director's cut)")
    }

    func testAVersionConflictUnderTheErrorPolicyFailsWith133020AndLeavesThePlan() throws {
        let movie = try conflictingUpdate()
        var plan = SavePlan(inserted: [], updated: [movie], deleted: [])
        let found = try versionConflicts(of: plan)
        let error = assertPersistenceError(.managedObjectMerge) {
            try ConflictResolver(policy: .error).resolveVersionConflicts(found, in: &plan)
        }
        XCTAssertEqual(error?.conflicts.first?.sourceObject.objectID, movie.objectID)
        XCTAssertEqual(plan.updated.count, 1)
        XCTAssertEqual(movie.title, "Alien", "the object is not touched")
    }

    func testRollbackTakesTheStoresRowAndBacksUpWhatItChanged() throws {
        let movie = try conflictingUpdate()
        var plan = SavePlan(inserted: [], updated: [movie], deleted: [])
        try ConflictResolver(policy: .rollback).resolveVersionConflicts(try versionConflicts(of: plan), in: &plan)
        XCTAssertEqual(movie.title, "Alien (director's cut)")
        XCTAssertNil(movie.rating, "the store's value replaces the unsaved one")
        XCTAssertTrue(plan.updated.isEmpty, "nothing of this object is left to write")
        plan.restoreBackups()
        XCTAssertEqual(movie.title, "Alien", "a failed save can put the object back")
        XCTAssertEqual(movie.rating, 8)
    }
}
