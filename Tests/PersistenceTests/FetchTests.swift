import Foundation
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence
import XCTest

final class FetchTests: PersistenceTestCase {
    /// Five movies, two directors, three actors, a studio.
    private func seed() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        let cameron = Director(context: context)
        cameron.name = "James Cameron"
        let weaver = Actor(context: context)
        weaver.name = "Sigourney Weaver"
        let hamilton = Actor(context: context)
        hamilton.name = "Linda Hamilton"
        let pacino = Actor(context: context)
        pacino.name = "Al Pacino"
        let studio = Studio(context: context)
        studio.name = "Pinewood"
        let rows: [(String, Int, Double?, Director?, [Actor])] = [
            ("Alien", 1979, 8.5, scott, [weaver]),
            ("Aliens", 1986, 8.4, cameron, [weaver]),
            ("The Terminator", 1984, 8.1, cameron, [hamilton]),
            ("Blade Runner", 1982, nil, scott, []),
            ("Héroes", 2005, 6.0, nil, [pacino, hamilton]),
        ]
        for (title, year, rating, director, actors) in rows {
            let movie = makeMovie(title, year: year)
            movie.rating = rating.map(NSNumber.init(value:))
            movie.director = director
            movie.actors = Set(actors)
            if title.hasPrefix("Alien") { movie.studio = studio }
        }
        try context.save()
        context.reset()
    }

    private func titles(_ format: String, _ arguments: Any?..., sort: Bool = true) throws -> [String] {
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: format, argumentArray: arguments)
        let result = try context.fetch(request).map(\.title)
        return sort ? result.sorted() : result
    }

    /// Core Data's `sortDescriptors` is optional and starts `nil`, which orders nothing, as an empty array does.
    func testSortDescriptorsStartNilAndNilOrdersAsNoDescriptors() throws {
        try seed()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        XCTAssertNil(request.sortDescriptors)
        let storeOrder = try context.fetch(request).map(\.title)
        XCTAssertFalse(request.description.contains("order by"), request.description)
        request.sortDescriptors = []
        XCTAssertEqual(try context.fetch(request).map(\.title), storeOrder)
        request.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
        XCTAssertEqual(try context.fetch(request).map(\.title),
                       ["Alien", "Blade Runner", "The Terminator", "Aliens", "Héroes"])
        request.sortDescriptors = nil
        XCTAssertEqual(try context.fetch(request).map(\.title), storeOrder)
    }

    /// Core Data's result type is a struct of constants with its raw values; a value that is none of them
    /// (undocumented there) is refused here rather than guessed at.
    func testResultTypesAreCoreDataConstantsAndOthersAreRefused() throws {
        try seed()
        XCTAssertEqual([FetchRequestResultType.managedObjectResultType, .managedObjectIDResultType,
                        .dictionaryResultType, .countResultType].map(\.rawValue), [0, 1, 2, 4])
        let request = FetchRequest<any FetchRequestResult>(entityName: "Movie")
        XCTAssertEqual(request.resultType, .managedObjectResultType)
        XCTAssertTrue(request.description.hasPrefix("FetchRequest<FetchRequestResult>(Movie"), request.description)
        request.resultType = .managedObjectIDResultType
        XCTAssertEqual(try context.fetch(request).compactMap { $0 as? ManagedObjectID }.count, 5)
        request.resultType = [.managedObjectIDResultType, .dictionaryResultType]
        assertPersistenceError(.coreData) { _ = try context.fetch(request) }
    }


    /// Core Data's `NSFetchRequest<ResultType: NSFetchRequestResult>` takes only what a fetch returns (its four
    /// classes, or the protocol for an untyped request): `[String: Any]` rows or an `Int` count compile nowhere.
    func testResultMustBeWhatCoreDataFetches() throws {
        let refused = ["[String: Any]", "Int", "String"]
        let bad = try typecheck((["import Persistence"]
            + refused.enumerated().map { "let r\($0.offset) = FetchRequest<\($0.element)>(entityName: \"Movie\")" })
            .joined(separator: "\n"))
        XCTAssertNotEqual(bad.status, 0)
        for type in refused {
            XCTAssertTrue(bad.output.contains("error: type '\(type.replacingOccurrences(of: "String: Any", with: "String : Any"))' does not conform to protocol 'FetchRequestResult'"),
                          "\(type): \(bad.output)")
        }
        let good = try typecheck("""
            import Foundation
            import Persistence
            protocol Managed: ManagedObject, FetchRequestResult {}
            func untyped(_ context: ManagedObjectContext) throws -> [any FetchRequestResult] {
                let objects = FetchRequest<ManagedObject>(entityName: "Movie")
                let ids = FetchRequest<ManagedObjectID>(entityName: "Movie")
                let rows = FetchRequest<NSDictionary>(entityName: "Movie")
                let count = FetchRequest<NSNumber>(entityName: "Movie")
                _ = (objects, ids, rows, count)
                let request: FetchRequest<FetchRequestResult> = ManagedObject.fetchRequest()
                let controller: FetchedResultsController<FetchRequestResult>? = nil
                _ = controller
                return try context.fetch(request)
            }
            """)
        XCTAssertEqual(good.status, 0, good.output)
    }
    /// Core Data's `propertiesToFetch` holds names or property descriptions; anything else is refused here.
    func testPropertiesToFetchTakesNamesAndDescriptions() throws {
        try seed()
        let entity = Movie.entity()
        let rows = FetchRequest<NSDictionary>(entityName: "Movie")
        rows.resultType = .dictionaryResultType
        rows.propertiesToFetch = [try XCTUnwrap(entity.attributesByName["title"]), "year",
                                  try XCTUnwrap(entity.relationshipsByName["director"])]
        rows.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
        let first = try XCTUnwrap(context.fetch(rows).first)
        XCTAssertEqual(Set(first.allKeys.compactMap { $0 as? String }), ["title", "year", "director"])
        XCTAssertEqual(first["title"] as? String, "Alien")
        XCTAssertTrue(first["director"] is ManagedObjectID)
        rows.propertiesToFetch = ["title", 42]
        assertPersistenceError(.coreData) { _ = try context.fetch(rows) }
    }

    func testComparisonsAndBooleanLogic() throws {
        try seed()
        XCTAssertEqual(try titles("year > 1983"), ["Aliens", "Héroes", "The Terminator"])
        XCTAssertEqual(try titles("year BETWEEN {1980, 1985}"), ["Blade Runner", "The Terminator"])
        XCTAssertEqual(try titles("year IN %@", [1979, 2005]), ["Alien", "Héroes"])
        XCTAssertEqual(try titles("rating == nil"), ["Blade Runner"])
        XCTAssertEqual(try titles("rating != 8.5"), ["Aliens", "Blade Runner", "Héroes", "The Terminator"], "nil != 8.5 holds")
        XCTAssertEqual(try titles("NOT (rating > 8)"), ["Héroes"], "NOT of a comparison with nil is unknown in SQL, as in Core Data's store")
        XCTAssertEqual(try titles("year < 1983 OR title ENDSWITH 's'"), ["Alien", "Aliens", "Blade Runner", "Héroes"])
        XCTAssertEqual(try titles("year >= %@ AND year <= %@", 1980, 1986), ["Aliens", "Blade Runner", "The Terminator"])
        XCTAssertEqual(try titles("TRUEPREDICATE").count, 5)
        XCTAssertEqual(try titles("FALSEPREDICATE"), [])
    }

    func testStringOperatorsAndOptions() throws {
        try seed()
        XCTAssertEqual(try titles("title BEGINSWITH 'Alien'"), ["Alien", "Aliens"])
        XCTAssertEqual(try titles("title CONTAINS[c] 'TERMIN'"), ["The Terminator"])
        XCTAssertEqual(try titles("title CONTAINS 'TERMIN'"), [])
        XCTAssertEqual(try titles("title ==[cd] 'heroes'"), ["Héroes"])
        XCTAssertEqual(try titles("title == 'heroes'"), [])
        XCTAssertEqual(try titles("title LIKE 'Alien?'"), ["Aliens"])
        XCTAssertEqual(try titles("title LIKE[c] '*RUNNER'"), ["Blade Runner"])
        XCTAssertEqual(try titles("title MATCHES 'A.*n'"), ["Alien"])
        XCTAssertEqual(try titles("title IN[c] {'alien', 'BLADE RUNNER'}"), ["Alien", "Blade Runner"])
        XCTAssertEqual(try titles("%K CONTAINS[cd] %@", "title", "ero"), ["Héroes"])
    }

    func testKeyPathsThroughRelationships() throws {
        try seed()
        XCTAssertEqual(try titles("director.name == 'Ridley Scott'"), ["Alien", "Blade Runner"])
        XCTAssertEqual(try titles("director.name BEGINSWITH[c] 'james'"), ["Aliens", "The Terminator"])
        XCTAssertEqual(try titles("director == nil"), ["Héroes"])
        XCTAssertEqual(try titles("ANY actors.name == 'Sigourney Weaver'"), ["Alien", "Aliens"])
        XCTAssertEqual(try titles("actors.name CONTAINS 'Linda Hamilton'"), ["Héroes", "The Terminator"])
        XCTAssertEqual(try titles("actors.@count == 0"), ["Blade Runner"])
        XCTAssertEqual(try titles("actors.@count >= 2"), ["Héroes"])
        XCTAssertEqual(try titles("ALL actors.name BEGINSWITH 'L'"), ["Blade Runner", "The Terminator"])
        XCTAssertEqual(try titles("NONE actors.name BEGINSWITH 'L'"), ["Alien", "Aliens", "Blade Runner"])
        XCTAssertEqual(try titles("NONE actors.name IN %@", ["Sigourney Weaver", "Al Pacino"]),
                       ["Blade Runner", "The Terminator"])
        XCTAssertEqual(try titles("ALL actors.name IN %@", ["Linda Hamilton", "Al Pacino"]),
                       ["Blade Runner", "Héroes", "The Terminator"], "ALL holds for a movie with no actors")
        XCTAssertEqual(try titles("studio.name == 'Pinewood' AND director.name == 'James Cameron'"), ["Aliens"])

        let directors = FetchRequest<Director>(entityName: "Director")
        directors.predicate = FetchPredicate(format: "ANY movies.year < 1980")
        XCTAssertEqual(try context.fetch(directors).map(\.name), ["Ridley Scott"])
        directors.predicate = FetchPredicate(format: "movies.@avg.year > 1984")
        XCTAssertEqual(try context.fetch(directors).map(\.name), ["James Cameron"])
        directors.predicate = FetchPredicate(format: "movies.@max.rating == 8.5")
        XCTAssertEqual(try context.fetch(directors).map(\.name), ["Ridley Scott"])
    }

    func testObjectsAsArguments() throws {
        try seed()
        let scott = try XCTUnwrap(context.fetch(Director.fetchRequest()).first { $0.name == "Ridley Scott" })
        XCTAssertEqual(try titles("director == %@", scott), ["Alien", "Blade Runner"])
        XCTAssertEqual(try titles("director != %@", scott), ["Aliens", "Héroes", "The Terminator"])
        let weaver = try XCTUnwrap(context.fetch(Actor.fetchRequest()).first { $0.name == "Sigourney Weaver" })
        XCTAssertEqual(try titles("%@ IN actors", weaver), ["Alien", "Aliens"])
        XCTAssertEqual(try titles("actors CONTAINS %@", weaver), ["Alien", "Aliens"])
        let alien = try XCTUnwrap(context.fetch(Movie.fetchRequest()).first { $0.title == "Alien" })
        XCTAssertEqual(try titles("SELF == %@", alien), ["Alien"])
        XCTAssertEqual(try titles("SELF IN %@", [alien]), ["Alien"])
        XCTAssertEqual(try titles("director IN %@", [scott.objectID]), ["Alien", "Blade Runner"])
    }

    /// Each predicate must select the same objects in SQL as in memory, but for the one difference Core Data's SQL
    /// makes (``CoreDataSQLReading``: a NOT over a comparison with nil); the second half of the check runs the
    /// predicate over the same objects with `evaluate(with:)`.
    func testSQLAndMemoryAgree() throws {
        try seed()
        let formats = [
            "year > 1983", "rating != 8.5", "NOT (rating > 8)", "rating < 8.45 OR rating == nil", "title CONTAINS[cd] 'e'",
            "title LIKE '*e*'", "title BEGINSWITH[d] 'He'", "title MATCHES '.*[0-9].*'", "director.name ENDSWITH 'n'",
            "ANY actors.name LIKE[c] '*a*'", "ALL actors.name CONTAINS 'a'", "NONE actors.name == 'Al Pacino'",
            "actors.@count > 0", "director.movies.@count == 2", "title < 'B'", "title >=[c] 'b'", "year IN {1979, 1986, 3}",
            "rating BETWEEN {8.2, 9}", "NOT (director.name == 'Ridley Scott')", "studio == nil OR year > 2000",
            "ALL actors.name IN {'Linda Hamilton', 'Sigourney Weaver'}", "NONE actors.name IN {'Sigourney Weaver'}",
            "ANY actors.name IN {'Al Pacino', 'Linda Hamilton'}",
        ]
        let all = try context.fetch(Movie.fetchRequest())
        for format in formats {
            let predicate = FetchPredicate(format: format)
            let request: FetchRequest<Movie> = Movie.fetchRequest()
            request.predicate = predicate
            let inSQL = try context.fetch(request).map(\.title).sorted()
            let expected = try all.filter { try CoreDataSQLReading.matches(predicate, $0) }.map(\.title).sorted()
            XCTAssertEqual(inSQL, expected, format)
            if format.hasPrefix("NOT (") {
                XCTAssertNotEqual(inSQL, try all.filter { try predicate.evaluate(checking: $0) }.map(\.title).sorted(),
                                  "a NOT over a nil rating or director leaves the object out in SQL only: \(format)")
            }
        }
    }

    func testSortingLimitAndOffset() throws {
        try seed()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: false)]
        XCTAssertEqual(try context.fetch(request).map(\.year), [2005, 1986, 1984, 1982, 1979])
        request.fetchLimit = 2
        request.fetchOffset = 1
        XCTAssertEqual(try context.fetch(request).map(\.year), [1986, 1984])
        XCTAssertEqual(try context.count(for: request), 2)

        let byDirector: FetchRequest<Movie> = Movie.fetchRequest()
        byDirector.sortDescriptors = [
            FetchSortDescriptor(keyPath: \Movie.director?.name, ascending: true),
            FetchSortDescriptor(keyPath: \Movie.title, ascending: false),
        ]
        XCTAssertEqual(try context.fetch(byDirector).map(\.title), ["Héroes", "The Terminator", "Aliens", "Blade Runner", "Alien"],
                       "nil sorts first")
        let caseless: FetchRequest<Movie> = Movie.fetchRequest()
        caseless.sortDescriptors = [FetchSortDescriptor(key: "rating", ascending: true)]
        XCTAssertEqual(try context.fetch(caseless).first?.title, "Blade Runner")
    }

    func testFetchesIncludePendingChanges() throws {
        try seed()
        let alien = try XCTUnwrap(context.fetch(Movie.fetchRequest()).first { $0.title == "Alien" })
        let blade = try XCTUnwrap(context.fetch(Movie.fetchRequest()).first { $0.title == "Blade Runner" })
        makeMovie("Prometheus", year: 2012)
        context.delete(alien)
        blade.year = 2017

        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: "year > 2000")
        request.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
        XCTAssertEqual(try context.fetch(request).map(\.title), ["Héroes", "Prometheus", "Blade Runner"])
        XCTAssertEqual(try context.count(for: request), 3)
        request.fetchLimit = 1
        request.fetchOffset = 1
        XCTAssertEqual(try context.fetch(request).map(\.title), ["Prometheus"])

        request.includesPendingChanges = false
        request.fetchLimit = 0
        request.fetchOffset = 0
        XCTAssertEqual(try context.fetch(request).map(\.title), ["Héroes"], "the store alone")
    }

    func testResultTypes() throws {
        try seed()
        let ids = FetchRequest<ManagedObjectID>(entityName: "Movie")
        ids.resultType = .managedObjectIDResultType
        ids.predicate = FetchPredicate(format: "year < 1983")
        let found = try context.fetch(ids)
        XCTAssertEqual(found.count, 2)
        XCTAssertTrue(found.allSatisfy { !$0.isTemporaryID && $0.entityName == "Movie" })

        let rows = FetchRequest<NSDictionary>(entityName: "Movie")
        rows.resultType = .dictionaryResultType
        rows.propertiesToFetch = ["title", "rating", "director"]
        rows.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let dictionaries = try context.fetch(rows)
        XCTAssertEqual(dictionaries.first?["title"] as? String, "Alien")
        XCTAssertEqual(dictionaries.first?["rating"] as? Double, 8.5)
        XCTAssertTrue(dictionaries.first?["director"] is ManagedObjectID)
        let scott = try XCTUnwrap(context.fetch(Director.fetchRequest()).first { $0.name == "Ridley Scott" })
        XCTAssertEqual(dictionaries.first?["director"] as? ManagedObjectID, scott.objectID, "the director's own ID")
        XCTAssertNil(dictionaries.first { $0["title"] as? String == "Blade Runner" }?["rating"], "nil values are left out")

        let distinct = FetchRequest<NSDictionary>(entityName: "Movie")
        distinct.resultType = .dictionaryResultType
        distinct.propertiesToFetch = ["director"]
        distinct.returnsDistinctResults = true
        XCTAssertEqual(try context.fetch(distinct).count, 3)

        let count = FetchRequest<NSNumber>(entityName: "Movie")
        count.resultType = .countResultType
        XCTAssertEqual(try context.fetch(count), [5])

        let asBase = FetchRequest<ManagedObject>(entityName: "Movie")
        XCTAssertEqual(try context.fetch(asBase).count, 5)
        let asProtocol = FetchRequest<any FetchRequestResult>(entityName: "Movie")
        let evaluables = try context.fetch(asProtocol)
        XCTAssertEqual(evaluables.compactMap { ($0 as? Movie)?.title }.count, 5, "protocol results are cast one by one")
        let wrongClass = FetchRequest<Director>(entityName: "Movie")
        assertPersistenceError(.coreData) { _ = try context.fetch(wrongClass) }

        let mismatched = FetchRequest<Movie>(entityName: "Movie")
        mismatched.resultType = .managedObjectIDResultType
        let error = assertPersistenceError(.coreData) { _ = try context.fetch(mismatched) }
        XCTAssertTrue(error?.message.contains("FetchRequest<ManagedObjectID>") == true, error?.message ?? "")
    }

    func testFaultsAndBatches() throws {
        try seed()
        let faults = try context.fetch(Movie.fetchRequest())
        XCTAssertTrue(faults.allSatisfy(\.isFault))
        _ = faults[0].title
        XCTAssertFalse(faults[0].isFault)

        context.reset()
        let eager: FetchRequest<Movie> = Movie.fetchRequest()
        eager.returnsObjectsAsFaults = false
        XCTAssertTrue(try context.fetch(eager).allSatisfy { !$0.isFault })

        context.reset()
        let batched: FetchRequest<Movie> = Movie.fetchRequest()
        batched.fetchBatchSize = 2
        batched.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
        let movies = try context.fetch(batched)
        XCTAssertEqual(movies.count, 5)
        XCTAssertTrue(movies.allSatisfy { $0.faultState == .faultWithoutRow })
        XCTAssertEqual(movies[0].title, "Alien")
        XCTAssertEqual(movies[1].faultState, .faultWithRow, "its batch-mate came with it")
        XCTAssertEqual(movies[2].faultState, .faultWithoutRow, "the next batch is not read yet")
        XCTAssertEqual(movies.map(\.year), [1979, 1982, 1984, 1986, 2005])
    }

    func testUniquingAcrossFetches() throws {
        try seed()
        let first = try context.fetch(Movie.fetchRequest())
        let second = try context.fetch(Movie.fetchRequest())
        for (a, b) in zip(first, second) { XCTAssertTrue(a === b) }
    }

    func testBadRequestsSayWhatIsWrong() throws {
        try seed()
        let unknownEntity = assertPersistenceError(.persistentStoreIncompatibleSchema) {
            _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Film"))
        }
        XCTAssertTrue(unknownEntity?.message.contains("Its entities: Movie, Director") == true, unknownEntity?.message ?? "")

        let unknownKey: FetchRequest<Movie> = Movie.fetchRequest()
        unknownKey.predicate = FetchPredicate(format: "runtime > 90")
        let keyError = assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(unknownKey) }
        XCTAssertEqual(keyError?.key, "runtime")

        let wrongType: FetchRequest<Movie> = Movie.fetchRequest()
        wrongType.predicate = FetchPredicate(format: "year == 'nineteen'")
        let typeError = assertPersistenceError(.coreData) { _ = try context.fetch(wrongType) }
        XCTAssertTrue(typeError?.message.contains("integer32") == true, typeError?.message ?? "")

        let badSort: FetchRequest<Movie> = Movie.fetchRequest()
        badSort.sortDescriptors = [FetchSortDescriptor(key: "actors", ascending: true)]
        assertPersistenceError(.coreData) { _ = try context.fetch(badSort) }

        let badRegex: FetchRequest<Movie> = Movie.fetchRequest()
        badRegex.predicate = try? FetchPredicate(parsing: "title MATCHES %@", "(")
        if badRegex.predicate != nil { XCTAssertThrowsError(try context.fetch(badRegex)) }
    }

    func testArgumentsAreBoundNeverSpliced() throws {
        try seed()
        let attack = "x' OR 1=1 --"
        XCTAssertEqual(try titles("title == %@", attack), [])
        let dropper = "'; DROP TABLE ZMOVIE; --"
        XCTAssertEqual(try titles("title CONTAINS %@", dropper), [])
        makeMovie(attack)
        try context.save()
        XCTAssertEqual(try titles("title == %@", attack), [attack])
        XCTAssertEqual(try storedCount("Movie"), 6, "the table is intact")
    }
}
