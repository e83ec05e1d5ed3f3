import Foundation
@_spi(TestHarness) @_spi(PredicateParsing) import Persistence
import XCTest

/// `SUBQUERY(collection, $x, predicate).@count`, which Core Data's SQLite store answers in SQL. (Agreement between
/// SQL and memory over many cases: PredicateDifferentialTests.testSubqueriesAgree.)
final class SubqueryTests: PersistenceTestCase {
    private func makeCast() throws {
        let ann = Actor(context: context), bob = Actor(context: context), cy = Actor(context: context)
        (ann.name, bob.name, cy.name) = ("Ann", "Bob", "Cy")
        makeMovie("Alien").actors = [ann, bob]
        makeMovie("Heat").actors = [bob, cy]
        makeMovie("Ran").actors = [cy]
        makeMovie("Solo")
        try context.save()
    }

    private func titles(_ format: String, _ arguments: Any?...) throws -> [String] {
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: format, argumentArray: arguments)
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Movie.title, ascending: true)]
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.fetch(request).map(\.title) }
    }

    /// NSExpression's subquery "filters a collection by storing elements in the collection in a specified variable
    /// and keeping the elements that the qualifier returns as true"; `.@count` counts those kept.
    func testASubqueryCountsTheElementsThePredicateKeeps() throws {
        try makeCast()
        XCTAssertEqual(try titles("SUBQUERY(actors, $a, $a.name BEGINSWITH 'B').@count > 0"), ["Alien", "Heat"])
        XCTAssertEqual(try titles("SUBQUERY(actors, $a, $a.name IN %@).@count == 2", ["Bob", "Cy"]), ["Heat"])
        XCTAssertEqual(try titles("SUBQUERY(actors, $a, $a.movies.@count == 2).@count == 2"), ["Heat"])
        XCTAssertEqual(try titles("SUBQUERY(actors, $a, $a.name != 'Ann').@count == actors.@count"), ["Heat", "Ran", "Solo"])
        XCTAssertEqual(try titles("SUBQUERY(actors, $a, TRUEPREDICATE).@count == 0"), ["Solo"])
    }

    /// In memory, on unsaved objects, the same answer.
    func testASubqueryEvaluatesInMemory() throws {
        try makeCast()
        let predicate = FetchPredicate(format: "SUBQUERY(actors, $a, $a.name BEGINSWITH 'B').@count > 0")
        let movies = try context.fetch(Movie.fetchRequest()).sorted { $0.title < $1.title }
        XCTAssertEqual(try movies.filter { try predicate.evaluate(checking: $0) }.map(\.title), ["Alien", "Heat"])
        let unsaved = makeMovie("Blow-Up")
        let bea = Actor(context: context)
        bea.name = "Bea"
        unsaved.actors = [bea]
        XCTAssertTrue(try predicate.evaluate(checking: unsaved))
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = predicate
        XCTAssertEqual(Set(try context.fetch(request).map(\.title)), ["Alien", "Heat", "Blow-Up"])
    }

    func testSubqueriesNestAndReachThroughSeveralRelationships() throws {
        try makeCast()
        // Movies with an actor who also plays in a movie with Cy.
        let nested = "SUBQUERY(actors, $a, SUBQUERY($a.movies, $m, ANY $m.actors.name == 'Cy').@count > 0).@count > 0"
        XCTAssertEqual(try titles(nested), ["Alien", "Heat", "Ran"])
        XCTAssertEqual(try titles("SUBQUERY(actors.movies, $m, $m.title == 'Heat').@count == 2"), ["Heat"])
    }

    /// The format reads back to the same predicate; a key without the variable starts from the element too.
    func testTheFormatWritesTheVariableBack() throws {
        let predicate = FetchPredicate(format: "subquery(actors, $actor, name == %@ AND $actor.movies.@count > 1).@count >= 1", "Ann")
        XCTAssertEqual(predicate.predicateFormat,
                       #"SUBQUERY(actors, $actor, $actor.name == "Ann" AND $actor.movies.@count > 1).@count >= 1"#)
        XCTAssertEqual(FetchPredicate(format: predicate.predicateFormat), predicate)
        let nested = FetchPredicate(format: "SUBQUERY(actors, $a, SUBQUERY($a.movies, $m, $m == SELF).@count > 0).@count > 0")
        XCTAssertEqual(nested.predicateFormat, "SUBQUERY(actors, $a, SUBQUERY($a.movies, $m, $m == $m).@count > 0).@count > 0")
        XCTAssertEqual(FetchPredicate(format: nested.predicateFormat), nested)
    }

    /// The iteration variable "will shadow any instances of variable in the bindings dictionary"; other variables
    /// are substituted inside the subquery as anywhere else.
    func testSubstitutionVariablesInsideASubquery() throws {
        try makeCast()
        let template = FetchPredicate(format: "SUBQUERY(actors, $a, $a.name BEGINSWITH $prefix).@count > 0")
        let bound = template.withSubstitutionVariables(["prefix": "C", "a": "ignored"])
        XCTAssertEqual(bound.predicateFormat, #"SUBQUERY(actors, $a, $a.name BEGINSWITH "C").@count > 0"#)
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = bound
        XCTAssertEqual(Set(try context.fetch(request).map(\.title)), ["Heat", "Ran"])
        XCTAssertThrowsError(try template.withSubstitutionVariables(checking: [:]))
    }

    func testMalformedSubqueriesSayWhatIsWrong() {
        func message(_ format: String) -> String {
            do {
                _ = try FetchPredicate(parsing: format)
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertTrue(message("SUBQUERY(actors, $a, $a.name == 'x') > 0").contains("with .@count after it"))
        XCTAssertTrue(message("SUBQUERY(actors, $a, $a.name == 'x').@sum.year > 0").contains("with .@count after it"))
        XCTAssertTrue(message("SUBQUERY(actors, a, a.name == 'x').@count > 0").contains("iteration variable"))
        XCTAssertTrue(message("SUBQUERY('x', $a, $a.name == 'x').@count > 0").contains("key path to a to-many"))
        XCTAssertTrue(message("SUBQUERY(actors, $a).@count > 0").contains("',' and a predicate"))
        XCTAssertTrue(message("SUBQUERY(actors, $a, $a.name == 'x'.@count > 0").contains("')' to close the SUBQUERY"))
        XCTAssertTrue(message("SUBQUERY(actors, $a, SUBQUERY($a.movies, $m, $a.name == 'x').@count > 0).@count > 0")
                        .contains("$a belongs to an enclosing SUBQUERY"))
        XCTAssertTrue(message("SUBQUERY(actors, $a, $a.name == 'x').@count.name > 0").contains("nothing may follow"))
    }

    /// Nesting counts towards the depth limit, so hostile text is refused instead of exhausting the stack.
    func testDeeplyNestedSubqueriesAreRefused() throws {
        func nested(_ levels: Int) -> String {
            String(repeating: "SUBQUERY(movies, $m, ", count: levels) + "TRUEPREDICATE"
                + String(repeating: ").@count > 0", count: levels)
        }
        XCTAssertNoThrow(FetchPredicate(format: nested(40)))
        XCTAssertThrowsError(try FetchPredicate(parsing: nested(150))) { error in
            XCTAssertTrue("\(error)".contains("more than 100 deep"), "\(error)")
        }
    }

    func testASubqueryOverSomethingThatIsNotToManyFailsInMemoryAndInSQL() throws {
        let movie = makeMovie("Alien")
        try context.save()
        let predicate = FetchPredicate(format: "SUBQUERY(title, $t, $t == 'A').@count > 0")
        XCTAssertThrowsError(try predicate.evaluate(checking: movie)) { error in
            XCTAssertTrue("\(error)".contains("SUBQUERY needs a to-many key path"), "\(error)")
        }
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = predicate
        let reader = container.newBackgroundContext()
        XCTAssertThrowsError(try reader.performAndWait { try reader.fetch(request) }) { error in
            XCTAssertTrue("\(error)".contains("SUBQUERY needs a to-many relationship"), "\(error)")
        }
    }
}
