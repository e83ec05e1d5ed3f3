import Foundation
import XCTest
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence

/// Hostile input: nesting is bounded, so parsing cannot exhaust a thread's stack.
final class PredicateNestingLimitTests: XCTestCase {
    func testDeepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 5_000) + "a == 1" + String(repeating: ")", count: 5_000)
        XCTAssertThrowsError(try FetchPredicate(parsing: deep)) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.kind, .syntax)
            XCTAssertEqual((error as? FetchPredicateError)?.offset, 100)
            XCTAssertTrue("\(error)".contains("more than 100 deep"), "\(error)")
        }
        let nots = String(repeating: "NOT ", count: 5_000) + "a == 1"
        XCTAssertThrowsError(try FetchPredicate(parsing: nots))
    }

    func testTheDeepestAllowedPredicateWorksOnADispatchThread() throws {
        let format = String(repeating: "NOT (", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        let object = PredicateTestObject("Thing", ["a": 1])
        let done = expectation(description: "parsed and evaluated off the main thread")
        let result = ResultBox()
        DispatchQueue.global().async {
            let predicate = try? FetchPredicate(parsing: format)
            result.set(predicate?.predicateFormat)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        let reparsed = try FetchPredicate(parsing: XCTUnwrap(result.get()))
        XCTAssertEqual(reparsed, try FetchPredicate(parsing: format))
        XCTAssertTrue(try reparsed.evaluate(checking: object), "an even number of NOTs")
    }
}

/// Carries a string from a background queue to the test.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?

    func set(_ newValue: String?) { lock.withLock { value = newValue } }
    func get() -> String? { lock.withLock { value } }
}
