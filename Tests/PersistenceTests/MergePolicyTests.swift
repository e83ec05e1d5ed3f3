import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Each policy against the same conflict: this context changed the rating, another context changed the title (and,
/// in some tests, the rating too) and saved first.
final class MergePolicyTests: PersistenceTestCase {
    private var movie: Movie!

    override func setUpWithError() throws {
        try super.setUpWithError()
        movie = makeMovie("Alien", year: 1979)
        movie.rating = 7
        try context.save()
    }

    override func tearDownWithError() throws {
        movie = nil
        try super.tearDownWithError()
    }

    /// Another context saves `title` (and `rating` when given) over the stored row.
    private func changeElsewhere(title: String, rating: NSNumber? = nil) throws {
        try changeElsewhere(movie.objectID) { copy in
            copy.title = title
            if let rating { copy.rating = rating }
        }
    }

    /// The row as the store now holds it.
    private func stored() throws -> (title: String, rating: NSNumber?, year: Int) {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let copy = try XCTUnwrap(reader.existingObject(with: movie.objectID) as? Movie)
            return (copy.title, copy.rating, copy.year)
        }
    }

    func testStoreTrumpKeepsTheStoresChangesAndTheObjectsOthers() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.title, "Alien (1979)")
        XCTAssertEqual(row.rating, 8)
        XCTAssertEqual(movie.title, "Alien (1979)", "the object takes the store's value too")
        XCTAssertFalse(context.hasChanges)
    }

    func testStoreTrumpWinsWhenBothChangedTheSameProperty() throws {
        try changeElsewhere(title: "Alien", rating: 9)
        movie.rating = 8
        context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        try context.save()
        XCTAssertEqual(try stored().rating, 9)
        XCTAssertEqual(movie.rating, 9)
    }

    func testObjectTrumpWinsWhenBothChangedTheSameProperty() throws {
        try changeElsewhere(title: "Alien (1979)", rating: 9)
        movie.rating = 8
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.rating, 8, "the object's change wins")
        XCTAssertEqual(row.title, "Alien (1979)", "what only the store changed is kept")
        XCTAssertEqual(movie.title, "Alien (1979)")
    }

    /// `mergePolicy` is `Any`, as in Core Data: Core Data's constant works like the policy object, and a value
    /// that is no merge policy (a policy type, a name) fails the next save instead of being ignored.
    func testTheMergePolicyIsAnyAsInCoreDataAndAnythingButAPolicyFailsTheSave() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.title = "Alien (director's cut)"
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        XCTAssertTrue(context.mergePolicy as? MergePolicy === MergePolicy.mergeByPropertyObjectTrump)
        context.mergePolicy = MergePolicyType.mergeByPropertyObjectTrumpMergePolicyType  // the type, not a policy
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertTrue("\(error)".contains("mergePolicy was set to a value of type PolicyType, which is not a "
                + "merge policy"), "\(error)")
        }
        XCTAssertTrue(context.hasChanges, "nothing was saved")
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        try context.save()
        XCTAssertEqual(try stored().title, "Alien (director's cut)")
    }

    func testOverwriteWritesTheObjectsWholeState() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = MergePolicy.overwrite
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.title, "Alien", "overwrite replaces even what the object did not change")
        XCTAssertEqual(row.rating, 8)
    }

    func testRollbackDropsTheObjectsChanges() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = MergePolicy.rollback
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.title, "Alien (1979)")
        XCTAssertEqual(row.rating, 7)
        XCTAssertEqual(movie.rating, 7)
        XCTAssertEqual(movie.title, "Alien (1979)")
        XCTAssertFalse(context.hasChanges)
    }

    func testAResolvedObjectSavesAgainWithoutConflict() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        movie.year = 1980
        context.mergePolicy = MergePolicy.error
        XCTAssertNoThrow(try context.save(), "resolution adopted the store's row version")
        XCTAssertEqual(try stored().year, 1980)
    }

    func testARowDeletedElsewhereIsDroppedOrWrittenAgain() throws {
        let id = movie.objectID
        try deleteElsewhere(id)
        movie.rating = 8
        context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        try context.save()
        XCTAssertNil(movie.managedObjectContext, "the store's deletion wins: the object leaves the context")
        XCTAssertEqual(try storedCount("Movie"), 0)

        let second = makeMovie("Heat", year: 1995)
        try context.save()
        let secondID = second.objectID
        let other = container.newBackgroundContext()
        try other.performAndWait {
            other.delete(try other.existingObject(with: secondID))
            try other.save()
        }
        second.rating = 9
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        XCTAssertEqual(second.objectID, secondID)
        XCTAssertEqual(try storedCount("Movie", "title == 'Heat' AND rating == 9"), 1, "written again under the same ID")
    }

    func testADeletionInConflictGoesAheadUnderEveryPolicyButError() throws {
        for policy in [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback] {
            let doomed = makeMovie("Doomed", year: 2001)
            let scene = Scene(context: context)
            scene.number = 1
            scene.movie = doomed
            try context.save()
            let id = doomed.objectID
            let other = container.newBackgroundContext()
            try other.performAndWait {
                (try other.existingObject(with: id) as? Movie)?.rating = 5
                try other.save()
            }
            context.delete(doomed)
            context.mergePolicy = policy
            try context.save()
            XCTAssertEqual(try storedCount("Movie", "title == 'Doomed'"), 0, "\(policy): the row is deleted")
            XCTAssertEqual(try storedCount("Scene"), 0, "\(policy): its cascade went ahead too")
            XCTAssertNil(doomed.managedObjectContext, "\(policy): the object left the context")
            XCTAssertNil(context.registeredObject(for: id))
            XCTAssertFalse(context.hasChanges)
        }
    }

    func testADeletionInConflictFailsUnderTheErrorPolicy() throws {
        try changeElsewhere(title: "Alien (1979)")
        context.delete(movie)
        let error = assertPersistenceError(.managedObjectMerge) { try context.save() }
        XCTAssertEqual(error?.conflicts.first?.sourceObject.objectID, movie.objectID)
        XCTAssertTrue(movie.isDeleted, "the context keeps the deletion so it can be decided")
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    func testObjectTrumpNewObjectTakesOverTheStoredRowOnAUniquenessClash() throws {
        let storedID = movie.objectID
        let newcomer = makeMovie("Alien", year: 1979)
        newcomer.rating = 9.5
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(newcomer.objectID, storedID, "the newcomer takes the stored row's identity")
        XCTAssertTrue(context.registeredObject(for: storedID) === newcomer)
        XCTAssertNil(movie.managedObjectContext, "the object this context had for the row gives way")
        XCTAssertEqual(try storedCount("Movie", "rating == 9.5"), 1)
    }

    func testStoreTrumpDiscardsTheNewObjectOnAUniquenessClash() throws {
        let newcomer = makeMovie("Alien", year: 1979)
        newcomer.rating = 9.5
        makeMovie("Heat", year: 1995)
        context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 2, "Alien as stored, and Heat")
        XCTAssertEqual(try storedCount("Movie", "rating == 7"), 1)
        XCTAssertNil(newcomer.managedObjectContext, "the newcomer is discarded")
    }

    /// Three new objects of one save sharing their constraint values, under `policy`: returns them in insertion
    /// order after the save.
    private func saveThreeDuplicates(under policy: MergePolicy) throws -> [Movie] {
        let copies = (1...3).map { rating -> Movie in
            let copy = makeMovie("Dune", year: 1984)
            copy.rating = NSNumber(value: rating)
            return copy
        }
        context.mergePolicy = policy
        try context.save()
        XCTAssertEqual(try storedCount("Movie", "title == 'Dune'"), 1, "one row for the three under \(policy)")
        XCTAssertEqual(copies.filter { $0.managedObjectContext === context }.count, 1, "one object stays under \(policy)")
        XCTAssertFalse(context.hasChanges)
        return copies
    }

    func testObjectTrumpingPoliciesKeepTheLastOfDuplicatesInOneSave() throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .overwrite] {
            let copies = try saveThreeDuplicates(under: policy)
            let survivor = copies[2]
            XCTAssertTrue(survivor.managedObjectContext === context, "\(policy) keeps the last inserted")
            XCTAssertFalse(survivor.objectID.isTemporaryID)
            XCTAssertEqual(try storedCount("Movie", "title == 'Dune' AND rating == 3"), 1)
            XCTAssertNil(copies[0].managedObjectContext)
            XCTAssertNil(copies[1].managedObjectContext)
            context.delete(survivor)
            try context.save()
        }
    }

    func testStoreTrumpingPoliciesKeepTheFirstOfDuplicatesInOneSave() throws {
        for policy in [MergePolicy.mergeByPropertyStoreTrump, .rollback] {
            let copies = try saveThreeDuplicates(under: policy)
            let survivor = copies[0]
            XCTAssertTrue(survivor.managedObjectContext === context, "\(policy) keeps the first inserted")
            XCTAssertEqual(try storedCount("Movie", "title == 'Dune' AND rating == 1"), 1)
            XCTAssertNil(copies[1].managedObjectContext)
            XCTAssertNil(copies[2].managedObjectContext)
            context.delete(survivor)
            try context.save()
        }
    }

    func testDuplicatesInOneSaveThatAlsoClashWithTheStoreFollowTheSameRule() throws {
        let storedID = movie.objectID
        let first = makeMovie("Alien", year: 1979)
        first.rating = 8
        let last = makeMovie("Alien", year: 1979)
        last.rating = 9
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(last.objectID, storedID, "the last new object takes over the stored row")
        XCTAssertEqual(try stored().rating, 9)
        XCTAssertNil(first.managedObjectContext)

        let another = makeMovie("Alien", year: 1979)
        another.rating = 1
        makeMovie("Alien", year: 1979).rating = 2
        context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(try stored().rating, 9, "the stored row wins over every new object")
        XCTAssertNil(another.managedObjectContext)
    }

    func testWhatPointsAtADiscardedDuplicateIsSavedAsPointingAtNothing() throws {
        let first = makeMovie("Dune", year: 1984)
        let last = makeMovie("Dune", year: 1984)
        let scenes = [(1, first), (2, last)].map { number, movie -> Scene in
            let scene = Scene(context: context)
            scene.number = number
            scene.movie = movie
            return scene
        }
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        XCTAssertNil(scenes[0].movie, "in memory too, the scene lets go of the discarded movie")
        XCTAssertTrue(scenes[1].movie === last)
        XCTAssertEqual(last.sceneList.count, 1)
        XCTAssertFalse(context.hasChanges, "the scene matches the store: nothing left to save")
        XCTAssertEqual(try storedCount("Scene"), 2, "both scenes are saved")
        XCTAssertEqual(try storedCount("Scene", "number == 2 AND movie.title == 'Dune'"), 1, "the survivor keeps its scene")
        XCTAssertEqual(try storedCount("Scene", "number == 1 AND movie == nil"), 1, "the discarded movie's scene points at nothing")
    }

    func testDuplicatesInOneSaveStillFailUnderTheErrorPolicy() throws {
        makeMovie("Dune", year: 1984)
        makeMovie("Dune", year: 1984)
        assertPersistenceError(.managedObjectConstraintValidation) { try context.save() }
        XCTAssertEqual(context.insertedObjects.count, 2, "nothing was dropped")
    }

    func testAFailedSaveAfterResolutionPutsTheObjectsBack() throws {
        let heat = makeMovie("Heat", year: 1995)
        try context.save()
        try changeElsewhere(title: "Alien (1979)")
        // A conflict the policy resolves (movie), and a clash it does not: an updated object taking the constraint
        // values the store now has for another row.
        movie.rating = 8
        heat.title = "Alien (1979)"
        heat.year = 1979
        context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        assertPersistenceError(.managedObjectConstraintMerge) { try context.save() }
        XCTAssertEqual(movie.title, "Alien", "resolution was undone with the transaction")
        XCTAssertEqual(movie.rating, 8)
        XCTAssertTrue(movie.isUpdated)
        XCTAssertEqual(try stored().rating, 7)
        XCTAssertEqual(try stored().title, "Alien (1979)")
    }
}
