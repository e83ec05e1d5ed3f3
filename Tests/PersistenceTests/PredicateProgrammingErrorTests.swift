import Foundation
@_spi(PredicateCompounds) @_spi(PredicateParsing) @_spi(TestHarness) @testable import Persistence
import XCTest

/// A predicate's programming errors, which Core Data raises for: a malformed format (`init(parsing:)` throws it;
/// `init(format:)` stops the program by default or, for a test harness, makes a predicate that fails with the
/// parser's error where it is used) and a predicate that cannot be evaluated (`evaluate(checking:)` throws;
/// `evaluate(with:)` stops, or reports and answers false).
final class PredicateProgrammingErrorTests: PersistenceTestCase {
    override func tearDownWithError() throws {
        FetchPredicate.programmingErrorHandling = .stop
        try super.tearDownWithError()
    }

    func testStoppingIsTheDefault() {
        guard case .stop = FetchPredicate.programmingErrorHandling else { return XCTFail("the default lets a malformed format pass") }
    }

    func testParsingThrowsTheParsersError() {
        XCTAssertThrowsError(try FetchPredicate(parsing: "title == AND year > 3")) { error in
            let parse = error as? FetchPredicateError
            XCTAssertEqual(parse?.kind, .syntax)
            XCTAssertEqual(parse?.column, 10)
        }
        XCTAssertThrowsError(try FetchPredicate(parsing: "title == %@")) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.kind, .argument)
        }
        XCTAssertEqual(try FetchPredicate(parsing: "year > %d", 3), FetchPredicate(format: "year > %d", 3))
    }

    func testAMalformedFormatFailsWhereItIsUsedAndIsReportedOnce() throws {
        let reported = ReportedErrors()
        FetchPredicate.programmingErrorHandling = .report { reported.append($0) }
        let broken = FetchPredicate(format: "title == 'unclosed")
        XCTAssertEqual(reported.errors.count, 1)
        let parserError = try XCTUnwrap(reported.errors.first)
        XCTAssertEqual(parserError.kind, .syntax)
        XCTAssertTrue(broken.predicateFormat.hasPrefix("<malformed format:"), broken.predicateFormat)

        let movie = makeMovie("Heat")
        try context.save()
        XCTAssertThrowsError(try broken.evaluate(checking: movie)) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.description, parserError.description)
        }
        XCTAssertFalse(broken.evaluate(with: movie))
        XCTAssertEqual(reported.errors.count, 2, "evaluating it reports the parser's error again")
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = .and([FetchPredicate(format: "year > 0"), broken])
        XCTAssertThrowsError(try context.fetch(request)) { error in
            XCTAssertTrue("\(error)".contains(parserError.message), "\(error)")
        }
        XCTAssertEqual(reported.errors.count, 2, "a fetch throws it rather than reporting it")
    }

    func testASwiftNumberForAnObjectPlaceholderIsAProgrammingError() throws {
        let reported = ReportedErrors()
        FetchPredicate.programmingErrorHandling = .report { reported.append($0) }
        let box = FetchPredicate(format: "year == %@", 1995)
        XCTAssertEqual(reported.errors.map(\.kind), [.argument])
        XCTAssertTrue(reported.errors.first?.message.contains("NSNumber(value: 1995)") == true,
                      reported.errors.first?.message ?? "")
        XCTAssertTrue(box.predicateFormat.hasPrefix("<malformed format:"), box.predicateFormat)
        // The same value given in an array is an NSNumber on Apple: accepted.
        makeMovie("Heat", year: 1995)
        try context.save()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: "year == %@", argumentArray: [1995])
        XCTAssertEqual(try context.count(for: request), 1)
        request.predicate = box
        XCTAssertThrowsError(try context.fetch(request))
        XCTAssertEqual(reported.errors.count, 1)
    }

    func testAMissingSubstitutionVariableIsAProgrammingError() throws {
        let template = FetchPredicate(format: "title == $TITLE AND year > $YEAR")
        XCTAssertThrowsError(try template.withSubstitutionVariables(checking: ["TITLE": "Heat"])) { error in
            let failure = error as? FetchPredicateError
            XCTAssertEqual(failure?.kind, .argument)
            XCTAssertTrue(failure?.message.contains("$YEAR") == true, failure?.message ?? "")
        }
        // Core Data's form cannot throw: a missing variable is reported, and the copy fails where it is used.
        let reported = ReportedErrors()
        FetchPredicate.programmingErrorHandling = .report { reported.append($0) }
        let half = template.withSubstitutionVariables(["TITLE": "Heat"])
        XCTAssertEqual(reported.errors.count, 1)
        let substitutionError = try XCTUnwrap(reported.errors.first)
        XCTAssertEqual(substitutionError.kind, .argument)
        XCTAssertTrue(substitutionError.message.contains("$YEAR"), substitutionError.message)
        makeMovie("Heat", year: 1995)
        try context.save()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = half
        XCTAssertThrowsError(try context.fetch(request)) { error in
            XCTAssertTrue("\(error)".contains(substitutionError.message), "\(error)")
        }
        // With every variable given it is the predicate written out.
        let whole = template.withSubstitutionVariables(["TITLE": "Heat", "YEAR": 1990])
        XCTAssertEqual(whole, FetchPredicate(format: "title == %@ AND year > %d", "Heat", 1990))
        XCTAssertEqual(reported.errors.count, 1)
    }

    func testEvaluateWithAnswersAsCoreDataAndReportsWhatItCannotEvaluate() throws {
        let movie = makeMovie("Heat", year: 1995)
        let nineties = FetchPredicate(format: "year >= 1990 AND year < 2000")
        XCTAssertTrue(nineties.evaluate(with: movie))
        XCTAssertFalse(FetchPredicate(format: "title BEGINSWITH 'A'").evaluate(with: movie))
        XCTAssertTrue(FetchPredicate(format: "title == nil").evaluate(with: nil), "nil: every key path reads nil")

        let reported = ReportedErrors()
        FetchPredicate.programmingErrorHandling = .report { reported.append($0) }
        let mismatched = FetchPredicate(format: "title > 3")
        XCTAssertFalse(mismatched.evaluate(with: movie))
        XCTAssertFalse(nineties.evaluate(with: "a string"))
        XCTAssertEqual(reported.errors.map(\.kind), [.evaluation, .evaluation])
        XCTAssertThrowsError(try mismatched.evaluate(checking: movie)) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.kind, .evaluation)
        }
        XCTAssertThrowsError(try nineties.evaluate(checking: 42)) { error in
            XCTAssertTrue("\(error)".contains("SELF is integer 42, not an object, so 'year' cannot be read"), "\(error)")
        }
    }
}

/// Errors handed to a report closure (which may run on any thread).
private final class ReportedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [FetchPredicateError] = []

    func append(_ error: FetchPredicateError) { lock.withLock { collected.append(error) } }
    var errors: [FetchPredicateError] { lock.withLock { collected } }
}
