import Foundation
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) import Persistence
import XCTest

/// A generated space of predicates — operators × options × key paths through to-one and to-many relationships ×
/// nil, NUL, non-ASCII and NaN values — must select the same objects in memory (`evaluate(with:)`) and on unsaved
/// objects (a fetch before saving), and in SQL (a fetch after saving) the objects Core Data's SQLite store selects:
/// the same but for a NOT over a comparison with nil, which SQL leaves unknown (``CoreDataSQLReading``).
final class PredicateDifferentialTests: PersistenceTestCase {
    private func build(_ context: ManagedObjectContext) {
        func actor(_ name: String) -> Actor {
            let actor = Actor(context: context)
            actor.name = name
            return actor
        }
        func director(_ name: String) -> Director {
            let director = Director(context: context)
            director.name = name
            return director
        }
        let ann = actor("Ann"), annNUL = actor("Ann\0"), accent = actor("Ánn"), japanese = actor("日本"), empty = actor("")
        let hitchcock = director("naïve"), kurosawa = director("黒澤"), nul = director("a\0b")
        let rows: [(String, Double?, Director?, [Actor], [String?])] = [
            ("Ann", 1.5, hitchcock, [ann, accent], ["Ann", nil]),
            ("ann", nil, nil, [], []),
            ("Ánn", -2, kurosawa, [japanese], [nil]),
            ("Ann\0", 0, nul, [annNUL, empty], ["naïve", "NAIVE"]),
            ("naïve", .infinity, hitchcock, [ann], ["日本"]),
            ("日本", 1.5, nil, [empty], [""]),
            ("", 3, kurosawa, [accent, annNUL, japanese], ["a\0b"]),
        ]
        for (title, rating, director, actors, summaries) in rows {
            let movie = Movie(context: context)
            movie.title = title
            movie.rating = rating.map(NSNumber.init(value:))
            movie.director = director
            movie.actors = Set(actors)
            movie.sceneList = summaries.enumerated().map { index, summary in
                let scene = Scene(context: context)
                scene.number = index
                scene.summary = summary
                return scene
            }
        }
    }

    /// Asserts that the predicates agree; returns how many of them Core Data's SQL answers differently from memory.
    @discardableResult
    private func assertAgreement(_ predicates: [FetchPredicate], file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let answers = try predicateAnswers(predicates, of: Movie.self, label: \.title, build: build)
        let lines = answers.filter { !$0.agree }.map(\.description)
        XCTAssertTrue(lines.isEmpty, "\(lines.count) of \(predicates.count) disagree:\n" + lines.prefix(40).joined(separator: "\n"),
                      file: file, line: line)
        return answers.filter(\.sqlLeavesOutNilUnderNOT).count
    }

    private static let stringPaths = ["title", "director.name", "actors.name", "scenes.summary", "director.movies.title",
                                      "actors.movies.director.name"]
    private static let options = ["", "[c]", "[d]", "[cd]"]
    private static let modifiers = ["", "ANY ", "ALL ", "NONE "]

    func testStringComparisonsAgree() throws {
        let operators = ["==", "!=", "<", "<=", ">", ">=", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE"]
        let values: [Any?] = [nil, "", "Ann\0", "ann", "ÁNN", "日本", "naive", "a\0b", "*n*", "?nn"]
        var predicates: [FetchPredicate] = []
        for path in Self.stringPaths {
            for op in operators {
                for option in Self.options {
                    for modifier in Self.modifiers {
                        for value in values {
                            if let predicate = try? FetchPredicate(parsing: "\(modifier)\(path) \(op)\(option) %@", value) {
                                predicates.append(predicate)
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(predicates.count, 8_000)
        try assertAgreement(predicates)
    }

    func testListsBoundsAndKeyPathsAgree() throws {
        let lists: [[Any]] = [["Ann", NSNull()], ["ann", "日本", "Ann\0"], [], ["a\0b", ""]]
        var predicates: [FetchPredicate] = []
        for path in Self.stringPaths {
            for option in Self.options {
                for modifier in Self.modifiers {
                    for list in lists {
                        predicates += [try? FetchPredicate(parsing: "\(modifier)\(path) IN\(option) %@", list),
                                       try? FetchPredicate(parsing: "NOT \(modifier)\(path) IN\(option) %@", list)].compactMap { $0 }
                    }
                    predicates += [try? FetchPredicate(parsing: "\(modifier)\(path) BETWEEN\(option) %@", ["A", "a"]),
                                   try? FetchPredicate(parsing: "\(modifier)\(path) BETWEEN\(option) {'', 'Ann'}")].compactMap { $0 }
                }
                for other in ["title", "director.name"] {
                    for op in ["==", "!=", "<", ">=", "BEGINSWITH", "CONTAINS"] {
                        predicates += [try? FetchPredicate(parsing: "\(path) \(op)\(option) \(other)"),
                                       try? FetchPredicate(parsing: "NOT \(path) \(op)\(option) \(other)")].compactMap { $0 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(predicates.count, 1_000)
        let leftOut = try assertAgreement(predicates)
        XCTAssertGreaterThan(leftOut, 20, "NOT over a nil value leaves objects out in SQL")
    }

    func testNumbersNilAndNaNAgree() throws {
        let values: [Any?] = [nil, Double.nan, 1.5, 0, -2, Double.infinity, 3]
        var predicates: [FetchPredicate] = []
        for path in ["rating", "director.movies.rating", "actors.movies.rating"] {
            for op in ["==", "!=", "<", "<=", ">", ">="] {
                for modifier in Self.modifiers {
                    for value in values {
                        // In an array, as on Apple where it bridges: a bare Swift number is refused for %@.
                        if let predicate = try? FetchPredicate(parsing: "\(modifier)\(path) \(op) %@", argumentArray: [value]) {
                            predicates += [predicate, .not(predicate)]
                        }
                    }
                }
            }
            for modifier in Self.modifiers {
                for list in [[Double.nan, 1.5], [0, Double.infinity], [-5, 5]] as [[Double]] {
                    predicates += [try? FetchPredicate(parsing: "\(modifier)\(path) IN %@", list),
                                   try? FetchPredicate(parsing: "\(modifier)\(path) BETWEEN %@", list)].compactMap { $0 }
                }
            }
        }
        predicates += try ["actors.@count > 1", "scenes.@count == 0", "actors.@count == scenes.@count", "rating == director.movies.@avg.rating",
                           "director.movies.@max.rating > 2", "director.movies.@sum.rating >= 1.5", "director == nil",
                           "director != nil AND NOT director.name BEGINSWITH[cd] 'N'"].map { try FetchPredicate(parsing: $0) }
        XCTAssertGreaterThan(predicates.count, 400)
        let leftOut = try assertAgreement(predicates)
        XCTAssertGreaterThan(leftOut, 10, "NOT over a nil rating leaves objects out in SQL")
    }

    /// `SUBQUERY(collection, $x, predicate).@count` over to-manys of every kind (a join table, ordered children,
    /// through a to-one, through two to-manys), with predicates on the elements' values, relationships, collection
    /// operators and a nested SUBQUERY.
    func testSubqueriesAgree() throws {
        let actorConditions = ["$x.name BEGINSWITH[c] 'a'", "$x.name == ''", "$x.movies.@count > 1", "ANY $x.movies.rating > 1",
                               "NOT $x.name IN {'Ann', '日本'}", "$x.name CONTAINS[cd] 'n' AND $x.movies.@count == 1"]
        let sceneConditions = ["$x.summary == nil", "$x.summary CONTAINS[cd] 'a'", "$x.number > 0", "$x.movie.rating > 0",
                               "$x.movie.director.name == 'naïve' OR summary == ''"]
        let movieConditions = ["$x.rating > 1", "$x.title LIKE[c] '*n*'", "$x.director == nil", "$x.actors.@count >= 2",
                               "SUBQUERY($x.sceneList, $s, $s.summary != nil).@count > 0", "ALL $x.actors.name != 'Ann'",
                               "$x == SELF", "$x.rating == nil"]
        let cases: [(String, [String])] = [("actors", actorConditions), ("director.movies.actors", actorConditions),
                                          ("scenes", sceneConditions), ("actors.movies.sceneList", sceneConditions),
                                          ("director.movies", movieConditions), ("actors.movies", movieConditions)]
        var predicates: [FetchPredicate] = []
        for (collection, conditions) in cases {
            for condition in conditions {
                let subquery = "SUBQUERY(\(collection), $x, \(condition)).@count"
                for count in 0...3 {
                    predicates.append(try FetchPredicate(parsing: "\(subquery) == %d", count))
                }
                predicates += [try FetchPredicate(parsing: "\(subquery) > 0"),
                               try FetchPredicate(parsing: "\(subquery) == \(collection).@count"),
                               try FetchPredicate(parsing: "NOT \(subquery) < actors.@count")]
            }
        }
        XCTAssertGreaterThan(predicates.count, 200)
        try assertAgreement(predicates)
    }

    /// `ALL` and `NONE` with `IN`: every (or no) related object, or value, is in the list.
    func testAllAndNoneWithInAgree() throws {
        var predicates: [FetchPredicate] = []
        for modifier in ["ALL ", "NONE ", "ANY ", "NOT ALL ", "NOT NONE "] {
            for list in [["Ann", "日本"], [], ["", "Ánn", "Ann\0"]] as [[String]] {
                for path in ["actors.name", "director.movies.title", "actors.movies.director.name"] {
                    predicates += [try FetchPredicate(parsing: "\(modifier)\(path) IN %@", list),
                                   try FetchPredicate(parsing: "\(modifier)\(path) IN[cd] %@", list)]
                }
            }
            for range in [(0, 0), (0, 1), (1, 2)] {
                predicates.append(try FetchPredicate(parsing: "\(modifier)scenes.number IN {%d, %d}", range.0, range.1))
            }
        }
        try assertAgreement(predicates)
    }

    /// Collection operators at the end of a key path through several to-many relationships (and to-ones between
    /// them) count and aggregate every object reached, as the evaluator flattens nested to-manys.
    func testCollectionOperatorsThroughSeveralToManyRelationshipsAgree() throws {
        let collections = ["actors.movies", "director.movies.actors", "actors.movies.sceneList", "director.movies.sceneList",
                           "actors.movies.director.movies", "scenes.movie.actors.movies"]
        var predicates: [FetchPredicate] = []
        for collection in collections {
            for count in 0...7 {
                predicates.append(try FetchPredicate(parsing: "\(collection).@count == %d", count))
            }
            predicates.append(try FetchPredicate(parsing: "\(collection).@count > actors.@count"))
        }
        for collection in ["actors.movies", "director.movies", "actors.movies.director.movies", "scenes.movie.actors.movies"] {
            for op in ["@sum", "@avg", "@min", "@max"] {
                for value in [-2.0, 0, 1.5, 3, .infinity] {
                    predicates += [try FetchPredicate(parsing: "\(collection).\(op).rating >= %f", value),
                                   try FetchPredicate(parsing: "\(collection).\(op).rating < %f", value)]
                }
                predicates.append(try FetchPredicate(parsing: "\(collection).\(op).rating == nil"))
            }
            for op in ["@min", "@max"] {
                for value in ["", "Ann", "naïve", "日本"] {
                    predicates += [try FetchPredicate(parsing: "\(collection).\(op).title == %@", value),
                                   try FetchPredicate(parsing: "\(collection).\(op).title > %@", value),
                                   try FetchPredicate(parsing: "\(collection).\(op).director.name == %@", value)]
                }
            }
        }
        for op in ["@sum", "@avg", "@min", "@max"] {
            for value in [0, 1, 2] {
                predicates.append(try FetchPredicate(parsing: "actors.movies.sceneList.\(op).number == %d", value))
            }
        }
        XCTAssertGreaterThan(predicates.count, 200)
        try assertAgreement(predicates)
    }
}
