import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class ChildContextTests: PersistenceTestCase {
    private func makeChild(of parent: ManagedObjectContext? = nil,
                           _ type: ManagedObjectContext.ConcurrencyType = .privateQueue) -> ManagedObjectContext {
        let child = ManagedObjectContext(type)
        child.parent = parent ?? context
        return child
    }

    func testAChildSavePushesOneLevelUpOnly() throws {
        let child = makeChild()
        let id = try child.performAndWait { () -> ManagedObjectID in
            let movie = Movie(context: child)
            movie.title = "Draft"
            try child.save()
            XCTAssertFalse(child.hasChanges)
            return movie.objectID
        }
        XCTAssertTrue(id.isTemporaryID)
        XCTAssertTrue(context.hasChanges)
        XCTAssertEqual((context.registeredObject(for: id) as? Movie)?.title, "Draft", "the parent has it, under the same ID")
        XCTAssertEqual(try storedCount("Movie"), 0, "nothing reaches the store until the parent saves")
        try context.save()
        XCTAssertEqual(try storedCount("Movie", "title == 'Draft'"), 1)
    }

    func testAChildSeesItsParentsUnsavedChanges() throws {
        let alien = makeMovie("Alien", year: 1979)
        let heat = makeMovie("Heat", year: 1995)
        try context.save()
        alien.title = "Alien (director's cut)"
        context.delete(heat)
        makeMovie("Prometheus", year: 2012)       // unsaved in the parent

        let child = makeChild()
        try child.performAndWait {
            let request: FetchRequest<Movie> = Movie.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
            XCTAssertEqual(try child.fetch(request).map(\.title), ["Alien (director's cut)", "Prometheus"])
            request.predicate = FetchPredicate(format: "title CONTAINS 'cut'")
            XCTAssertEqual(try child.fetch(request).map(\.year), [1979], "the predicate sees the parent's value")
            XCTAssertEqual(try child.count(for: Movie.fetchRequest()), 2)
            XCTAssertThrowsError(try child.existingObject(with: heat.objectID), "deleted in the parent")
        }
    }

    func testDiscardingAChildLeavesTheParentUntouched() throws {
        let alien = makeMovie("Alien")
        try context.save()
        do {
            let child = makeChild()
            child.performAndWait {
                let copy = child.object(with: alien.objectID) as! Movie
                copy.title = "Changed in the child"
                _ = Movie(context: child)
            }
            // Dropped without saving.
        }
        XCTAssertFalse(context.hasChanges)
        XCTAssertEqual(alien.title, "Alien")

        let child = makeChild()
        child.performAndWait {
            (child.object(with: alien.objectID) as? Movie)?.title = "Changed again"
            child.rollback()
        }
        XCTAssertFalse(context.hasChanges)
    }

    func testEditInAChildThenCommitThroughTheParent() throws {
        let alien = makeMovie("Alien", year: 1979)
        try context.save()
        let editor = makeChild()
        try editor.performAndWait {
            let draft = try XCTUnwrap(editor.existingObject(with: alien.objectID) as? Movie)
            XCTAssertEqual(draft.title, "Alien")
            draft.rating = 8.5
            try editor.save()
        }
        XCTAssertEqual(alien.rating, 8.5, "the parent's object took the child's change")
        XCTAssertTrue(alien.isUpdated)
        try context.save()
        XCTAssertEqual(try storedCount("Movie", "rating == 8.5"), 1)
    }

    func testRelationshipsCrossLevelsAsIDs() throws {
        let rope = makeMovie("Rope")
        try context.save()
        let child = makeChild()
        try child.performAndWait {
            let movie = try XCTUnwrap(child.existingObject(with: rope.objectID) as? Movie)
            for number in 1...2 {
                let scene = Scene(context: child)
                scene.number = number
                scene.movie = movie
            }
            try child.save()
        }
        XCTAssertEqual(rope.sceneList.map(\.number), [1, 2], "the parent's movie has the child's new scenes, in order")
        try context.save()
        XCTAssertEqual(try storedCount("Scene", "movie.title == 'Rope'"), 2)
    }

    func testTemporaryIDsStayTemporaryInTheChildUnlessObtainedFirst() throws {
        let child = makeChild()
        let (plain, obtained) = try child.performAndWait { () -> (Movie, Movie) in
            let plain = Movie(context: child)
            plain.title = "Plain"
            let obtained = Movie(context: child)
            obtained.title = "Obtained"
            try child.obtainPermanentIDs(for: [obtained])
            try child.save()
            return (plain, obtained)
        }
        try context.save()
        child.performAndWait {
            XCTAssertTrue(plain.objectID.isTemporaryID, "the parent's save does not reach the child's objects")
            XCTAssertFalse(obtained.objectID.isTemporaryID)
        }
        XCTAssertNotNil(try context.existingObject(with: obtained.performIDRead(child)))
    }

    func testDeletionsInAChildReachTheParent() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let child = makeChild()
        try child.performAndWait {
            child.delete(child.object(with: alien.objectID))
            try child.save()
        }
        XCTAssertTrue(alien.isDeleted)
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testGrandchildrenSaveStepByStep() throws {
        let child = makeChild()
        let grandchild = makeChild(of: child)
        try grandchild.performAndWait {
            let movie = Movie(context: grandchild)
            movie.title = "Nested"
            try grandchild.save()
        }
        XCTAssertFalse(context.hasChanges)
        try child.performAndWait {
            XCTAssertEqual(try child.fetch(Movie.fetchRequest()).map(\.title), ["Nested"])
            try child.save()
        }
        XCTAssertTrue(context.hasChanges)
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    func testNestedPerformAndWaitAcrossParentAndChildDoesNotHang() throws {
        // From the main thread: child → parent (main queue) runs inline.
        let child = makeChild()
        let finished = expectation(description: "background save")
        let nested = child.performAndWait {
            context.performAndWait {
                child.performAndWait { child.hasChanges }
            }
        }
        XCTAssertFalse(nested)
        // From the child's queue while the main thread waits: the parent's performAndWait gets the main queue.
        child.perform {
            let movie = Movie(context: child)
            movie.title = "From the background"
            do { try child.save() } catch { XCTFail("\(error)") }
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(context.insertedObjects.count, 1)
    }

    func testAChildMergesItsParentsSavesWhenAsked() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let child = makeChild()
        child.automaticallyMergesChangesFromParent = true
        let copy = try child.performAndWait { try XCTUnwrap(child.existingObject(with: alien.objectID) as? Movie) }
        child.performAndWait { XCTAssertEqual(copy.title, "Alien") }
        let merged = expectation(forNotification: ManagedObjectContext.didChangeObjectsNotification, object: child)
        alien.title = "Alien (1979)"
        try context.save()
        wait(for: [merged], timeout: 5)
        child.performAndWait { XCTAssertEqual(copy.title, "Alien (1979)") }
    }
}

private extension Movie {
    /// Reads the object ID on its context's queue.
    func performIDRead(_ context: ManagedObjectContext) -> ManagedObjectID {
        context.performAndWait { objectID }
    }
}
