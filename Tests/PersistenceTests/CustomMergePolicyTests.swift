import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// Apps subclass `MergePolicy` as they subclass Core Data's `NSMergePolicy`: they override the resolve methods,
/// call `super`, and adjust the objects. A save must call the overrides with the store's conflicts, save what they
/// change, and fail with what they throw.
final class CustomMergePolicyTests: PersistenceTestCase {
    /// Counts its calls, keeps the conflicts it was handed, and after `super` runs `fixUp` on each conflict (as an
    /// app fixes up a counter on the objects after Core Data merged them).
    final class CountingPolicy: MergePolicy, @unchecked Sendable {
        private(set) var optimisticCalls = 0
        private(set) var handed: [MergeConflict] = []
        let callsSuper: Bool
        let fixUp: (MergeConflict) throws -> Void

        init(merge type: MergePolicyType, callsSuper: Bool = true, fixUp: @escaping (MergeConflict) throws -> Void = { _ in }) {
            self.callsSuper = callsSuper
            self.fixUp = fixUp
            super.init(merge: type)
        }

        override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
            optimisticCalls += 1
            handed += list
            if callsSuper { try super.resolve(optimisticLockingConflicts: list) }
            for conflict in list { try fixUp(conflict) }
        }
    }

    /// Merges new objects that share a title and year into one: the first keeps the sum of the ratings, the
    /// others are deleted; a new object clashing with a stored one is discarded by `super` (store trump) and
    /// its rating added to the stored object.
    final class MergingDuplicatesPolicy: MergePolicy, @unchecked Sendable {
        private(set) var handed: [ConstraintConflict] = []

        init() {
            super.init(merge: .mergeByPropertyStoreTrumpMergePolicyType)
        }

        override func resolve(constraintConflicts list: [ConstraintConflict]) throws {
            handed += list
            for conflict in list where conflict.databaseObject == nil {
                let movies = conflict.conflictingObjects.compactMap { $0 as? Movie }
                let survivor = movies[0]
                for duplicate in movies.dropFirst() {
                    survivor.rating = NSNumber(value: (survivor.rating?.doubleValue ?? 0) + (duplicate.rating?.doubleValue ?? 0))
                    survivor.managedObjectContext?.delete(duplicate)
                }
            }
            try super.resolve(constraintConflicts: list)
            for conflict in list {
                guard let stored = conflict.databaseObject as? Movie else { continue }
                for snapshot in conflict.conflictingSnapshots {
                    if let rating = snapshot["rating"] as? Double {
                        stored.rating = NSNumber(value: (stored.rating?.doubleValue ?? 0) + rating)
                    }
                }
            }
        }
    }

    struct PolicyRefused: Error, Equatable {}

    /// A movie saved here, then changed (title and rating) by another context: this context's copy is stale.
    private func staleMovie() throws -> Movie {
        let movie = makeMovie("Alien", year: 1979)
        movie.rating = 7
        try context.save()
        try changeElsewhere(movie.objectID) { copy in
            copy.title = "Alien (1979)"
            copy.rating = 9
        }
        return movie
    }

    /// The movie with `id` as the store holds it.
    private func stored(_ id: ManagedObjectID) throws -> (title: String, rating: NSNumber?, year: Int) {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let copy = try XCTUnwrap(reader.existingObject(with: id) as? Movie)
            return (copy.title, copy.rating, copy.year)
        }
    }

    func testAnOverrideIsCalledWithTheStoresConflictAndWhatItChangesAfterSuperIsSaved() throws {
        let movie = try staleMovie()
        let reader = container.newBackgroundContext()
        var storedCountDuringResolution: Int?
        // Store trump absorbs the whole conflict (the store changed the rating this context changed), so only the
        // override's change is left to write. Reading through another context, on its own queue, would deadlock
        // if the policy ran under the coordinator's lock.
        let policy = CountingPolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType) { conflict in
            let conflicting = try XCTUnwrap(conflict.sourceObject as? Movie)
            conflicting.year += 1
            storedCountDuringResolution = try reader.performAndWait {
                try reader.count(for: FetchRequest<Movie>(entityName: "Movie"))
            }
        }
        movie.rating = 8
        context.mergePolicy = policy
        try context.save()

        XCTAssertEqual(policy.optimisticCalls, 1)
        let conflict = try XCTUnwrap(policy.handed.first)
        XCTAssertTrue(conflict.sourceObject === movie)
        XCTAssertEqual(conflict.newVersionNumber, conflict.oldVersionNumber + 1)
        XCTAssertEqual(conflict.objectSnapshot?["rating"] as? Double, 8, "the object's values as it would save them")
        XCTAssertEqual(conflict.cachedSnapshot?["rating"] as? Double, 7, "the values it last read")
        XCTAssertEqual(conflict.persistedSnapshot?["title"] as? String, "Alien (1979)", "the row as stored now")
        XCTAssertEqual(storedCountDuringResolution, 1)

        let row = try stored(movie.objectID)
        XCTAssertEqual(row.title, "Alien (1979)")
        XCTAssertEqual(row.rating, 9, "super applied store trump")
        XCTAssertEqual(row.year, 1980, "the override's change after super is saved")
        XCTAssertEqual(movie.year, 1980)
        XCTAssertFalse(context.hasChanges)
    }

    /// objc.io's Moody keeps a country's mood count right through conflicts: after `super` (store trump) its policy
    /// refreshes the country and counts its moods. The refresh must bring in what another context related (and
    /// keep what this one added), so the count covers both, as the app's tests expect of Core Data.
    func testARefreshAfterSuperCountsTheStoresAndTheContextsNewMembers() throws {
        let director = Director(context: context)
        director.name = "Scott"
        makeMovie("Alien").director = director
        try context.save()
        XCTAssertEqual(director.movies.count, 1)
        try addMovieElsewhere("Gladiator", directedBy: director.objectID) { $0.born = Date(timeIntervalSince1970: 0) }
        var counted: [Int] = []
        context.mergePolicy = CountingPolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType) { conflict in
            guard let conflicted = conflict.sourceObject as? Director else { return }
            conflicted.managedObjectContext?.refresh(conflicted, mergeChanges: true)
            counted.append(conflicted.movies.count)
        }
        makeMovie("Prometheus").director = director
        director.name = "Ridley Scott"

        XCTAssertNoThrow(try context.save())
        XCTAssertEqual(counted, [3], "Alien, Gladiator from the store, Prometheus from here")
        XCTAssertEqual(Set(director.movies.map(\.title)), ["Alien", "Gladiator", "Prometheus"])
        XCTAssertEqual(try storedCount("Movie", "director.name == 'Ridley Scott'"), 3)
    }

    func testASubclassOfTheErrorTypeThatCallsSuperFailsWith133020AndKeepsTheChanges() throws {
        let movie = try staleMovie()
        let policy = CountingPolicy(merge: .errorMergePolicyType)
        movie.rating = 8
        context.mergePolicy = policy
        let error = assertPersistenceError(.managedObjectMerge) { try context.save() }
        XCTAssertEqual(policy.optimisticCalls, 1, "the error policy's override is called too")
        XCTAssertEqual(error?.conflicts.first?.sourceObject.objectID, movie.objectID)
        XCTAssertEqual(error?.conflicts.first?.persistedSnapshot?["title"] as? String, "Alien (1979)")
        XCTAssertEqual(movie.rating, 8)
        XCTAssertTrue(context.hasChanges)
    }

    func testAnOverrideThatThrowsFailsTheSaveWithItsErrorAndPutsTheObjectBack() throws {
        let movie = try staleMovie()
        let policy = CountingPolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType) { conflict in
            (conflict.sourceObject as? Movie)?.year = 2024
            throw PolicyRefused()
        }
        movie.rating = 8
        context.mergePolicy = policy
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual(error as? PolicyRefused, PolicyRefused())
        }
        XCTAssertEqual(movie.title, "Alien", "what super merged in is put back")
        XCTAssertEqual(movie.rating, 8, "the context's own change is still there")
        XCTAssertEqual(movie.year, 1979, "what the override changed is put back")
        XCTAssertTrue(context.hasChanges)
        XCTAssertEqual(try stored(movie.objectID).rating, 9, "nothing was written")

        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        XCTAssertEqual(try stored(movie.objectID).rating, 8)
    }

    func testAnOverrideThatLeavesTheConflictUnresolvedFailsWith133020() throws {
        let movie = try staleMovie()
        let policy = CountingPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType, callsSuper: false)
        movie.rating = 8
        context.mergePolicy = policy
        let error = assertPersistenceError(.managedObjectMerge) { try context.save() }
        XCTAssertEqual(policy.optimisticCalls, 1, "asked once, then the store's second report fails the save")
        XCTAssertEqual(error?.conflicts.first?.sourceObject.objectID, movie.objectID)
        XCTAssertEqual(movie.rating, 8)
        XCTAssertTrue(context.hasChanges)
    }

    func testAConstraintOverrideMergesDuplicateNewObjectsIntoOne() throws {
        let copies = [3.0, 4.0, 5.0].map { rating -> Movie in
            let copy = makeMovie("Dune", year: 1984)
            copy.rating = NSNumber(value: rating)
            return copy
        }
        let policy = MergingDuplicatesPolicy()
        context.mergePolicy = policy
        try context.save()

        XCTAssertEqual(policy.handed.count, 1)
        let conflict = try XCTUnwrap(policy.handed.first)
        XCTAssertNil(conflict.databaseObject, "a clash among new objects")
        XCTAssertEqual(conflict.constraint, ["title", "year"])
        XCTAssertEqual(conflict.constraintValues["title"] as? String, "Dune")
        XCTAssertEqual(conflict.conflictingObjects.count, 3)
        XCTAssertTrue(conflict.conflictingObjects[0] === copies[0], "in insertion order")
        XCTAssertEqual(conflict.conflictingSnapshots.map { $0["rating"] as? Double }, [3, 4, 5])

        XCTAssertEqual(try storedCount("Movie", "title == 'Dune'"), 1)
        XCTAssertEqual(try stored(copies[0].objectID).rating, 12, "the survivor holds the merged ratings")
        XCTAssertNil(copies[1].managedObjectContext, "deleted duplicates leave the context")
        XCTAssertNil(copies[2].managedObjectContext)
        XCTAssertFalse(context.hasChanges)
    }

    func testAConstraintOverrideMergesANewObjectIntoTheStoredOne() throws {
        let original = makeMovie("Alien", year: 1979)
        original.rating = 7
        try context.save()
        let storedID = original.objectID
        context.reset()

        let newcomer = makeMovie("Alien", year: 1979)
        newcomer.rating = 2
        let policy = MergingDuplicatesPolicy()
        context.mergePolicy = policy
        try context.save()

        let conflict = try XCTUnwrap(policy.handed.first)
        XCTAssertEqual(conflict.databaseObject?.objectID, storedID)
        XCTAssertEqual(conflict.databaseSnapshot?["rating"] as? Double, 7)
        XCTAssertTrue(conflict.conflictingObjects.first === newcomer)
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(try stored(storedID).rating, 9, "the override's change to the stored object is saved")
        XCTAssertNil(newcomer.managedObjectContext, "super (store trump) discarded the newcomer")
        XCTAssertFalse(context.hasChanges)
    }

    func testAPolicyMadeWithInitMergeBehavesAsTheSharedInstance() throws {
        let made = MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        XCTAssertEqual(made, .mergeByPropertyObjectTrump)
        XCTAssertEqual(made.mergeType, .mergeByPropertyObjectTrump)
        XCTAssertEqual(made.hashValue, MergePolicy.mergeByPropertyObjectTrump.hashValue)
        XCTAssertNotEqual(made, .overwrite)
        XCTAssertNotEqual(CountingPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType), made,
                          "a subclass's instance is not the shared policy")
        XCTAssertEqual(MergePolicy.error.mergeType, .errorMergePolicyType)

        let movie = try staleMovie()
        movie.rating = 8
        // The policy crosses to another queue as the shared instances do.
        let background = container.newBackgroundContext()
        background.performAndWait { background.mergePolicy = made }
        context.mergePolicy = made
        try context.save()
        let row = try stored(movie.objectID)
        XCTAssertEqual(row.title, "Alien (1979)", "properties this context did not change take the store's values")
        XCTAssertEqual(row.rating, 8, "the object's change wins")
    }
}
