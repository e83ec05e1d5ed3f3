import Foundation
@testable import Persistence
import XCTest

/// A malformed format: `init(parsing:)` throws it; `init(format:)` stops the program by default (as Core Data raises)
/// or, for a test harness, makes a predicate that fails with the parser's error where it is used.
final class MalformedFormatTests: PersistenceTestCase {
    override func tearDownWithError() throws {
        FetchPredicate.malformedFormatHandling = .stop
        try super.tearDownWithError()
    }

    func testStoppingIsTheDefault() {
        guard case .stop = FetchPredicate.malformedFormatHandling else { return XCTFail("the default lets a malformed format pass") }
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
        FetchPredicate.malformedFormatHandling = .failWhenUsed { reported.append($0) }
        let broken = FetchPredicate(format: "title == 'unclosed")
        XCTAssertEqual(reported.errors.count, 1)
        let parserError = try XCTUnwrap(reported.errors.first)
        XCTAssertEqual(parserError.kind, .syntax)
        XCTAssertTrue(broken.predicateFormat.hasPrefix("<malformed format:"), broken.predicateFormat)

        let movie = makeMovie("Heat")
        try context.save()
        XCTAssertThrowsError(try broken.evaluate(with: movie)) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.description, parserError.description)
        }
        let request = Movie.fetchRequest()
        request.predicate = .and([FetchPredicate(format: "year > 0"), broken])
        XCTAssertThrowsError(try context.fetch(request)) { error in
            XCTAssertTrue("\(error)".contains(parserError.message), "\(error)")
        }
        XCTAssertEqual(reported.errors.count, 1, "reported when made, not again when used")
    }
}

/// Errors handed to a report closure (which may run on any thread).
private final class ReportedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [FetchPredicateError] = []

    func append(_ error: FetchPredicateError) { lock.withLock { collected.append(error) } }
    var errors: [FetchPredicateError] { lock.withLock { collected } }
}
