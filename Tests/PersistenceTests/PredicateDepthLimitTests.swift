import Foundation
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) @testable import Persistence
import XCTest

/// One nesting limit guards every recursive walk of a predicate — parsing, formatting, evaluating, compiling to SQL —
/// so hostile or generated predicates get a clear error instead of exhausting a thread's stack, on the main thread
/// as on a small secondary stack.
final class PredicateDepthLimitTests: PersistenceTestCase {
    /// Runs `body` on a thread with a 512 KB stack, as small as a dispatch thread's and waits for it.
    private func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = expectation(description: "ran on a small stack")
        let thread = Thread {
            body()
            done.fulfill()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        wait(for: [done], timeout: 60)
    }

    private static func assertTooDeep(_ error: Error, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue("\(error)".contains("more than \(PredicateNode.maximumDepth) deep"), "\(error)", file: file, line: line)
    }

    private static let tooDeep = "more than \(PredicateNode.maximumDepth) deep"
    /// Formats and what their error says.
    private static let hostile = [
        ("n == " + String(repeating: "CAST(", count: 800), tooDeep),
        ("n == " + String(repeating: "CAST(", count: 800) + "1" + String(repeating: ", \"NSNumber\")", count: 800), tooDeep),
        ("n IN " + String(repeating: "{", count: 1_200), "not another list"),
        ("n IN " + String(repeating: "{", count: 1_200) + "1" + String(repeating: "}", count: 1_200), "not another list"),
        (String(repeating: "(", count: 5_000) + "a == 1" + String(repeating: ")", count: 5_000), tooDeep),
        (String(repeating: "NOT ", count: 5_000) + "a == 1", tooDeep),
        (String(repeating: "a == 1 OR NOT (", count: 3_000) + "a == 1" + String(repeating: ")", count: 3_000), tooDeep),
        (String(repeating: "a.", count: 20_000) + "b == 1", tooDeep),
    ]
    private static var hostileFormats: [String] { hostile.map(\.0) }

    func testHostileFormatsAreSyntaxErrorsOnEveryThread() {
        for (format, fragment) in Self.hostile {
            XCTAssertThrowsError(try FetchPredicate(parsing: format)) { error in
                XCTAssertEqual((error as? FetchPredicateError)?.kind, .syntax)
                XCTAssertTrue("\(error)".contains(fragment), "\(error)")
            }
        }
        let messages = Messages()
        onSmallStack {
            for format in Self.hostileFormats {
                do {
                    _ = try FetchPredicate(parsing: format)
                    messages.append("no error")
                } catch {
                    messages.append("\(error)")
                }
            }
        }
        XCTAssertEqual(messages.all.count, Self.hostile.count)
        for (message, (_, fragment)) in zip(messages.all, Self.hostile) {
            XCTAssertTrue(message.contains(fragment), message)
        }
    }

    /// Built through the API, as deep as one likes: formatting works, and fetching or evaluating reports the limit.
    private static func deepPredicate(_ levels: Int) throws -> FetchPredicate {
        var predicate = try FetchPredicate(parsing: "title == %@", "Vertigo")
        let other = try FetchPredicate(parsing: "year < 0")
        for level in 0..<levels {
            switch level % 3 {
            case 0: predicate = .not(predicate)
            case 1: predicate = .or([other, predicate])
            default: predicate = .and([predicate, .not(other)])
            }
        }
        return predicate
    }

    func testPredicatesBuiltTooDeepThroughTheAPIFailClearly() throws {
        makeMovie("Vertigo")
        try context.save()
        let deep = try Self.deepPredicate(7_400)
        XCTAssertTrue(deep.predicateFormat.contains("more than \(PredicateNode.maximumDepth) deep"), deep.predicateFormat)
        XCTAssertEqual(deep, try Self.deepPredicate(7_400))
        XCTAssertEqual(Set([deep, deep]).count, 1)
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = deep
        XCTAssertThrowsError(try context.fetch(request)) { Self.assertTooDeep($0) }
        let movie = makeMovie("Rope")
        XCTAssertThrowsError(try deep.evaluate(checking: movie)) { Self.assertTooDeep($0) }
        XCTAssertThrowsError(try context.fetch(request), "unsaved changes are evaluated in memory") { Self.assertTooDeep($0) }

        let messages = Messages()
        onSmallStack {
            do {
                let deep = try Self.deepPredicate(7_400)
                messages.append(deep.predicateFormat)
                messages.append("\(deep.hashValue == deep.hashValue)")
                _ = try deep.evaluate(checking: PredicateTestObject("Movie", ["title": "x", "year": 1]))
                messages.append("evaluated")
            } catch {
                messages.append("\(error)")
            }
        }
        XCTAssertEqual(messages.all.count, 3)
        for message in [messages.all.first, messages.all.last].compactMap({ $0 }) {
            XCTAssertTrue(message.contains("more than \(PredicateNode.maximumDepth) deep"), message)
        }
    }

    /// At the limit itself everything works, in SQL as in memory, also on a small stack.
    func testTheDeepestAllowedPredicateWorksEverywhere() throws {
        let deepest = try Self.deepPredicate(PredicateNode.maximumDepth - 1)
        XCTAssertEqual(try FetchPredicate(parsing: deepest.predicateFormat), deepest)
        let lines = try predicateDisagreements([deepest]) { context in
            for (title, year) in [("Vertigo", 1958), ("Rope", 1948), ("Psycho", -1)] {
                self.makeMovie(title, year: year, in: context)
            }
        }
        XCTAssertTrue(lines.isEmpty, lines.joined(separator: "\n"))
        let format = deepest.predicateFormat
        let messages = Messages()
        onSmallStack {
            do {
                let parsed = try FetchPredicate(parsing: format)
                messages.append("\(try parsed.evaluate(checking: PredicateTestObject("Movie", ["title": "Vertigo", "year": 1])))")
                messages.append(parsed.predicateFormat == format ? "same" : "different")
            } catch {
                messages.append("\(error)")
            }
        }
        XCTAssertEqual(messages.all.count, 2)
        XCTAssertEqual(messages.all.last, "same")
        let fetcher = container.newBackgroundContext()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = deepest
        let onQueue = try fetcher.performAndWait { try fetcher.fetch(request).map(\.title) }
        XCTAssertEqual(onQueue.count, try context.fetch(request).count)
    }
}

/// Collects strings from another thread.
private final class Messages: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []

    func append(_ value: String) { lock.withLock { values.append(value) } }
    var all: [String] { lock.withLock { values } }
}
