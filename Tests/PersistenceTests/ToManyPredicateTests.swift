import Foundation
@_spi(TestHarness) @_spi(PredicateParsing) import Persistence
import XCTest

/// A key path through a to-many relationship means the same in SQL as in memory, for every operator.
final class ToManyPredicateTests: PersistenceTestCase {
    private func build(_ context: ManagedObjectContext) {
        func actor(_ name: String) -> Actor {
            let actor = Actor(context: context)
            actor.name = name
            return actor
        }
        let novak = actor("Kim Novak"), stewart = actor("James Stewart"), kim = actor("Kim")
        let director = Director(context: context)
        director.name = "Alfred Hitchcock"
        let rows: [(String, [Actor], [String?])] = [
            ("Vertigo", [novak, stewart], ["Tower", nil]),
            ("Rope", [stewart], []),
            ("Nobody", [], ["Empty"]),
            ("Kim", [kim], [nil]),
        ]
        for (title, actors, summaries) in rows {
            let movie = Movie(context: context)
            movie.title = title
            movie.actors = Set(actors)
            movie.director = title == "Nobody" ? nil : director
            movie.sceneList = summaries.enumerated().map { index, summary in
                let scene = Scene(context: context)
                scene.number = index
                scene.summary = summary
                return scene
            }
        }
    }

    /// `actors.name CONTAINS "Novak"` is an implicit ANY over the names: a substring test, in SQL as in memory.
    func testContainsThroughAToManyIsASubstringTestOfEachElement() throws {
        let predicate = FetchPredicate(format: "actors.name CONTAINS %@", "Novak")
        let lines = try predicateDisagreements([predicate], build: build)
        XCTAssertTrue(lines.isEmpty, lines.joined(separator: "\n"))
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = predicate
        XCTAssertEqual(try context.fetch(request).map(\.title), ["Vertigo"])
    }

    func testEveryOperatorThroughAToManyAgrees() throws {
        let operators = ["==", "!=", "<", "<=", ">", ">=", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES",
                         "==[c]", "!=[cd]", "CONTAINS[c]", "BEGINSWITH[cd]", "LIKE[c]"]
        let paths = ["actors.name", "scenes.summary", "director.movies.title", "actors.movies.title"]
        let values: [Any?] = ["Kim", "Kim Novak", "k.*", "*o*", "Tower", nil, ""]
        var predicates: [FetchPredicate] = []
        for path in paths {
            for op in operators {
                for value in values {
                    for modifier in ["", "ANY ", "ALL ", "NONE "] {
                        // Skips what does not parse (a glob given to MATCHES).
                        if let predicate = try? FetchPredicate(parsing: "\(modifier)\(path) \(op) %@", value) {
                            predicates.append(predicate)
                        }
                    }
                }
            }
            predicates.append(FetchPredicate(format: "\(path) IN %@", ["Kim", "Rope"]))
            predicates.append(FetchPredicate(format: "ANY \(path) IN[c] %@", ["kim", nil]))
            predicates.append(FetchPredicate(format: "ALL \(path) BETWEEN %@", ["A", "M"]))
            predicates.append(FetchPredicate(format: "\(path) IN %@", "Kim Novak and James Stewart"))
        }
        let lines = try predicateDisagreements(predicates, build: build)
        XCTAssertTrue(lines.isEmpty, "\(lines.count) of \(predicates.count) disagree:\n" + lines.prefix(30).joined(separator: "\n"))
    }
}
