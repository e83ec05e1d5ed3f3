import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class RelationshipTests: PersistenceTestCase {
    func testSettingAToOneUpdatesTheInverseToMany() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        let alien = makeMovie("Alien")
        alien.director = scott
        XCTAssertEqual(scott.movies, [alien])

        let other = Director(context: context)
        other.name = "James Cameron"
        alien.director = other
        XCTAssertTrue(scott.movies.isEmpty, "moving the movie removes it from its old director")
        XCTAssertEqual(other.movies, [alien])
    }

    func testSettingAToManyUpdatesEveryInverse() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        let alien = makeMovie("Alien")
        let heat = makeMovie("Heat")
        scott.movies = [alien, heat]
        XCTAssertTrue(alien.director === scott)
        XCTAssertTrue(heat.director === scott)
        scott.movies = [heat]
        XCTAssertNil(alien.director)
    }

    func testManyToManyKeepsBothSidesAndSurvivesSave() throws {
        let alien = makeMovie("Alien")
        let heat = makeMovie("Heat")
        let weaver = Actor(context: context)
        weaver.name = "Sigourney Weaver"
        let pacino = Actor(context: context)
        pacino.name = "Al Pacino"
        alien.actors = [weaver]
        pacino.movies = [heat, alien]
        XCTAssertEqual(alien.actors, [weaver, pacino])
        XCTAssertEqual(weaver.movies, [alien])
        try context.save()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request: FetchRequest<Actor> = Actor.fetchRequest()
            request.predicate = FetchPredicate(format: "name == %@", "Al Pacino")
            let fetched = try XCTUnwrap(reader.fetch(request).first)
            XCTAssertEqual(Set(fetched.movies.map(\.title)), ["Alien", "Heat"])
            XCTAssertEqual(fetched.movies.first { $0.title == "Alien" }?.actors.count, 2)
        }
    }

    func testOrderedToManyKeepsItsOrderThroughSaveAndRefetch() throws {
        let movie = makeMovie("Rope")
        let scenes = (1...5).map { number -> Scene in
            let scene = Scene(context: context)
            scene.number = number
            return scene
        }
        movie.sceneList = [scenes[2], scenes[0], scenes[4], scenes[1], scenes[3]]
        XCTAssertTrue(scenes[2].movie === movie)
        try context.save()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let fetched = try XCTUnwrap(reader.fetch(Movie.fetchRequest()).first)
            XCTAssertEqual(fetched.sceneList.map(\.number), [3, 1, 5, 2, 4])
        }

        // Reordering alone is a change that is saved.
        movie.sceneList = movie.sceneList.reversed()
        XCTAssertTrue(movie.isUpdated)
        try context.save()
        try reader.performAndWait {
            reader.reset()
            let fetched = try XCTUnwrap(reader.fetch(Movie.fetchRequest()).first)
            XCTAssertEqual(fetched.sceneList.map(\.number), [4, 2, 5, 1, 3])
        }
    }

    func testAppendingToAnOrderedRelationshipThroughTheChildSide() throws {
        let movie = makeMovie("Rope")
        for number in 1...3 {
            let scene = Scene(context: context)
            scene.number = number
            scene.movie = movie
        }
        XCTAssertEqual(movie.sceneList.map(\.number), [1, 2, 3])
    }

    func testRelationshipsAreFaultsUntilUsed() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        makeMovie("Alien").director = scott
        try context.save()
        context.reset()

        let director = try XCTUnwrap(context.fetch(Director.fetchRequest()).first)
        XCTAssertTrue(director.isFault)
        XCTAssertEqual(director.movies.map(\.title), ["Alien"])
        XCTAssertFalse(director.isFault)
        let movie = try XCTUnwrap(director.movies.first)
        XCTAssertTrue(movie.director === director, "one object per ID per context")
    }

    func testRelatingObjectsOfTwoContextsIsRefusedAtSave() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        try context.save()
        let background = container.newBackgroundContext()
        background.performAndWait {
            let movie = Movie(context: background)
            movie.title = "Alien"
            movie.director = scott   // the wrong context's object
        }
        let error = background.performAndWait { assertPersistenceError(.coreData) { try background.save() } }
        XCTAssertTrue(error?.message.contains("different contexts") == true, error?.message ?? "")
        background.performAndWait { background.rollback() }
        XCTAssertNoThrow(try background.performAndWait { try background.save() })
    }

    func testARelationshipToTheWrongEntityIsRejected() throws {
        let movie = makeMovie("Alien")
        let actor = Actor(context: context)
        actor.name = "X"
        movie.setValue(actor, forKey: "director")
        XCTAssertNil(movie.director, "an object of the wrong entity is not related")
        let error = assertPersistenceError(.managedObjectValidation) { try context.save() }
        XCTAssertTrue(error?.message.contains("relates to Director objects") == true, error?.message ?? "")
        XCTAssertNil(movie.director)
    }

    func testAnOrderedSetWithAnElementThatIsNoManagedObjectIsRefused() throws {
        let movie = makeMovie("Alien")
        let first = Scene(context: context)
        first.number = 1
        let second = Scene(context: context)
        second.number = 2
        movie.sceneList = [first]
        movie.scenes = NSOrderedSet(array: [second, "a scene that is only a string"])
        XCTAssertEqual(movie.sceneList.map(\.number), [1], "the relationship keeps its objects: none of the refused set")
        let error = assertPersistenceError(.managedObjectValidation) { try context.save() }
        XCTAssertTrue(error?.message.contains("Unacceptable type of value for Movie.scenes") == true, error?.message ?? "")
    }
}
