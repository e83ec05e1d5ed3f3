import Foundation
@testable import Persistence
import XCTest

final class DeleteRuleTests: PersistenceTestCase {
    func testCascadeDeletesTheChildren() throws {
        let movie = makeMovie("Rope")
        for number in 1...3 {
            let scene = Scene(context: context)
            scene.number = number
            scene.movie = movie
        }
        try context.save()
        XCTAssertEqual(try storedCount("Scene"), 3)

        context.delete(movie)
        XCTAssertTrue(movie.isDeleted)
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 0)
        XCTAssertEqual(try storedCount("Scene"), 0, "scenes cascade with their movie")
    }

    func testNullifyClearsTheOtherSide() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        let alien = makeMovie("Alien")
        alien.director = scott
        try context.save()

        context.delete(scott)
        try context.save()
        XCTAssertNil(alien.director)
        XCTAssertEqual(try storedCount("Movie", "director == nil"), 1)
        XCTAssertEqual(try storedCount("Director"), 0)
    }

    func testDeleteRuleOnTheChildSideDoesNotCascadeUpwards() throws {
        let movie = makeMovie("Rope")
        let scene = Scene(context: context)
        scene.number = 1
        scene.movie = movie
        try context.save()
        context.delete(scene)
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertTrue(movie.scenes.isEmpty)
    }

    func testDenyBlocksDeletingAStudioWithMovies() throws {
        let studio = Studio(context: context)
        studio.name = "Pinewood"
        makeMovie("Alien").studio = studio
        try context.save()

        context.delete(studio)
        let error = assertPersistenceError(.validationRelationshipDeniedDelete) { try context.save() }
        XCTAssertEqual(error?.key, "movies")
        XCTAssertEqual(try storedCount("Studio"), 1, "nothing was written")
        context.rollback()
        XCTAssertFalse(studio.isDeleted)

        // Once empty, the studio can go.
        studio.movies = []
        context.delete(studio)
        XCTAssertNoThrow(try context.save())
    }

    func testDeletingAnUnsavedObjectJustForgetsIt() throws {
        let movie = makeMovie("Draft")
        context.delete(movie)
        XCTAssertFalse(context.hasChanges == false && context.insertedObjects.contains(movie))
        XCTAssertTrue(context.insertedObjects.isEmpty)
        XCTAssertTrue(context.deletedObjects.isEmpty)
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testReinsertingADeletedObjectUndoesTheDelete() throws {
        let movie = makeMovie("Back")
        try context.save()
        context.delete(movie)
        context.insert(movie)
        XCTAssertFalse(movie.isDeleted)
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 1)
    }
}
