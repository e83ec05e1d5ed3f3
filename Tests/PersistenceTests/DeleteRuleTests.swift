import Foundation
@_spi(TestHarness) @testable import Persistence
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

    /// Core Data's `perform(_:)` "encapsulates an autorelease pool and a call to processPendingChanges()": once its
    /// block is done, the delete rules have run without a save; `performAndWait(_:)` promises no such call.
    func testAPerformBlockEndsByProcessingPendingChanges() throws {
        let background = container.newBackgroundContext()
        let sceneIDs: [ManagedObjectID] = try background.performAndWait {
            let movie = Movie(context: background)
            movie.title = "Rope"
            let scenes = (1...2).map { number -> Scene in
                let scene = Scene(context: background)
                scene.number = number
                scene.movie = movie
                return scene
            }
            try background.save()
            return scenes.map(\.objectID)
        }
        let done = expectation(description: "perform ran")
        background.perform {
            let movie = try? background.fetch(Movie.fetchRequest() as FetchRequest<Movie>).first
            movie.map(background.delete)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        let deletedScenes = background.performAndWait {
            sceneIDs.compactMap { background.registeredObject(for: $0) }.filter(\.isDeleted).count
        }
        XCTAssertEqual(deletedScenes, 2, "the cascade ran when the perform block ended, before any save")
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
        XCTAssertTrue(movie.sceneList.isEmpty)
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

    // MARK: - Deleting many saved objects (their relationships are read in bulk)

    /// Ten saved movies of three scenes each, read back by a fresh context as faults; returns the movies by title.
    private func savedMovies(in reader: ManagedObjectContext) throws -> [String: Movie] {
        for number in 0..<10 {
            let movie = makeMovie("Movie \(number)", year: 1950 + number)
            for sceneNumber in 1...3 {
                let scene = Scene(context: context)
                scene.number = number * 10 + sceneNumber
                scene.movie = movie
            }
        }
        try context.save()
        return try reader.performAndWait {
            Dictionary(uniqueKeysWithValues: try reader.fetch(Movie.fetchRequest()).map { ($0.title, $0) })
        }
    }

    func testDeletingManyMoviesCascadesToTheirStoredScenesButKeepsMovedOnes() throws {
        let reader = container.newBackgroundContext()
        let movies = try savedMovies(in: reader)
        try reader.performAndWait {
            // Move a scene of a doomed movie to one that stays, unsaved, before deleting.
            let kept = try XCTUnwrap(movies["Movie 9"])
            let moved = try XCTUnwrap(movies["Movie 0"]?.sceneList.first)
            moved.movie = kept
            for number in 0..<5 { reader.delete(movies["Movie \(number)"]!) }
            try reader.save()
        }
        XCTAssertEqual(try storedCount("Movie"), 5)
        XCTAssertEqual(try storedCount("Scene"), 16, "5 movies × 3 scenes stay, with the scene moved away")
        XCTAssertEqual(try storedCount("Scene", "movie.title == %@", "Movie 9"), 4)
        XCTAssertEqual(try storedCount("Scene", "movie == nil"), 0)
    }

    func testAChildDeletingManyMoviesKeepsItsParentsUnsavedChanges() throws {
        let parent = container.newBackgroundContext()
        let movies = try savedMovies(in: parent)
        // The parent moves a scene of Movie 1 to Movie 8 without saving; the child deletes Movies 0 to 4.
        parent.performAndWait {
            movies["Movie 1"]!.sceneList.last!.movie = movies["Movie 8"]!
        }
        let child = ManagedObjectContext(.privateQueue)
        child.parent = parent
        try child.performAndWait {
            let request: FetchRequest<Movie> = Movie.fetchRequest()
            request.predicate = FetchPredicate(format: "year < 1955")
            for movie in try child.fetch(request) { child.delete(movie) }
            try child.save()
        }
        try parent.performAndWait { try parent.save() }
        XCTAssertEqual(try storedCount("Movie"), 5)
        XCTAssertEqual(try storedCount("Scene"), 16)
        XCTAssertEqual(try storedCount("Scene", "movie.title == %@", "Movie 8"), 4, "the scene the parent moved survives")
    }
}
