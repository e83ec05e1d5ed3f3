import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// The base of the persistent history tests: the history model's container with history tracking on, fresh for
/// each test, and its view context.
class HistoryTestCase: PersistenceTestCase {
    typealias Folder = HistoryModel.Folder
    typealias Note = HistoryModel.Note
    typealias Checklist = HistoryModel.Checklist

    override func makeModel() throws -> ManagedObjectModel { try HistoryModel.make() }

    private(set) var history: PersistentContainer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        history = try HistoryModel.container(HistoryModel.description())
    }

    override func tearDownWithError() throws {
        history = nil
        try super.tearDownWithError()
    }

    var view: ManagedObjectContext { history.viewContext }

    /// A history-tracked store of the film model with "Ran" and three scenes in order, saved from its view context:
    /// the container (keep it alive) and the movie.
    func savedFilmWithScenes() throws -> (films: PersistentContainer, movie: Movie) {
        let films = try HistoryModel.container(HistoryModel.description(), model: TestModel.make())
        let view = films.viewContext
        let movie = Movie(context: view)
        movie.title = "Ran"
        movie.year = 1985
        movie.sceneList = (1...3).map { number in
            let scene = Scene(context: view)
            scene.number = number
            return scene
        }
        try view.save()
        return (films, movie)
    }
}
