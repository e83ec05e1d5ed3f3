import Foundation
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) import Persistence
import XCTest

/// SQL works wherever memory evaluation does: long IN lists, long AND/OR chains and deeply alternating NOT/OR stay
/// within SQLite's limits (its parser stack, its expression depth, its number of arguments).
///
/// Each input is as long or as deep as the limit it is about needs, and no more (the work of evaluating a
/// predicate three ways grows with its length):
/// - IN lists: longer than the compiler's 32 values for one argument per value (past that, one JSON argument) and
///   than SQLite's former default of 999 arguments, with every kind of value; and one list longer than SQLite's
///   present limit of 32,766 arguments, fetched in SQL;
/// - AND/OR chains: more terms than SQLite's expression depth of 1,000 (a plain `a OR b OR …` is that deep);
/// - deep alternations: the deepest nesting the parser accepts (found by parsing deeper until it refuses), with
///   both parities of the alternation at that depth, and the six shallowest (for the simpler patterns, across the
///   compiler's switch from infix SQL to a flat CASE past 4 levels); SQLite's parser stack and expression depth
///   are only nearer at the deepest, so the depths in between are parsed but no longer evaluated.
final class PredicateSQLLimitsTests: PersistenceTestCase {
    /// SQLite's default `SQLITE_MAX_EXPR_DEPTH`.
    private let expressionDepth = 1_000
    /// SQLite's former default `SQLITE_MAX_VARIABLE_NUMBER` (32,766 since 3.32).
    private let formerArgumentLimit = 999
    private func build(_ context: ManagedObjectContext) {
        let titles = ["Vertigo", "vertigo", "Rope", "Psycho", "Ann\0", "Ann", "naïve", "日本", "", "Héroes"]
        for (index, title) in titles.enumerated() {
            let movie = makeMovie(title, year: 1_900 + index * 7, in: context)
            movie.rating = index % 3 == 0 ? nil : NSNumber(value: index % 4 == 1 ? .infinity : Double(index) / 3)
        }
    }

    private func assertAgreement(_ predicates: [FetchPredicate], file: StaticString = #filePath, line: UInt = #line) throws {
        let lines = try predicateDisagreements(predicates, build: build)
        XCTAssertTrue(lines.isEmpty, "\(lines.count) of \(predicates.count) disagree:\n"
                      + lines.map(Self.shortened).joined(separator: "\n"), file: file, line: line)
    }

    /// A report line with its (long) predicate cut short.
    private static func shortened(_ line: String) -> String {
        guard let outcomes = line.range(of: "\n    memory:") else { return String(line.prefix(300)) }
        return String(line[..<outcomes.lowerBound].prefix(200)) + "…" + String(line[outcomes.lowerBound...].prefix(1_000))
    }

    func testLongInListsWork() throws {
        let count = formerArgumentLimit + 1
        let years = Array(0..<count).map { 1_000 + $0 } as [Any] + [NSNull()]
        var titles: [Any] = (0..<count).map { "title \($0)" }
        titles += ["Ann\0", "VERTIGO", "naïve", "日本", "", "\"quoted\\\"", "tab\there"]
        let ratings: [Any] = (0..<count).map { Double($0) / 3 } + [Double.infinity, -Double.infinity, Double.nan]
        try assertAgreement([
            try FetchPredicate(parsing: "year IN %@", years),
            try FetchPredicate(parsing: "NOT year IN %@", years),
            try FetchPredicate(parsing: "title IN %@", titles),
            try FetchPredicate(parsing: "title IN[c] %@", titles),
            try FetchPredicate(parsing: "title IN[cd] %@", titles + [NSNull()]),
            try FetchPredicate(parsing: "NOT title IN[cd] %@", titles),
            try FetchPredicate(parsing: "rating IN %@", ratings),
            try FetchPredicate(parsing: "rating IN %@", ratings + [NSNull()]),
            try FetchPredicate(parsing: "ANY director.movies.title IN %@", titles),
        ])
        // Past SQLite's present limit on arguments, in SQL only (memory evaluation of it is the lists above).
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        let evenYears = (0...32_766).map { $0 * 2 }
        request.predicate = try FetchPredicate(parsing: "year IN %@", evenYears)
        XCTAssertEqual(Set(try context.fetch(request).map(\.title)), ["Vertigo", "Rope", "Ann\0", "naïve", ""])
    }

    func testLongInListsOfObjectsAndBytesWork() throws {
        var directors: [Director] = []
        for index in 0..<1_500 {
            let director = Director(context: context)
            director.name = "Director \(index)"
            directors.append(director)
        }
        let movie = makeMovie("Vertigo")
        movie.director = directors[1_234]
        makeMovie("Rope").director = nil
        let samples = (0..<1_200).map { index -> Sample in
            let sample = Sample(context: context)
            sample.identifier = UUID()
            sample.bytes = Data([0, UInt8(index % 256), 0, UInt8(index / 256)])
            sample.text = "a\0\(index)"
            return sample
        }
        try context.save()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = try FetchPredicate(parsing: "director IN %@", Array(directors.dropFirst(100)))
        XCTAssertEqual(try context.fetch(request).map(\.title), ["Vertigo"])
        request.predicate = try FetchPredicate(parsing: "director IN %@", Array(directors.dropFirst(100)) as [Any] + [NSNull()])
        XCTAssertEqual(Set(try context.fetch(request).map(\.title)), ["Vertigo", "Rope"])
        let chosen = samples.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        for format in ["identifier IN %@", "bytes IN %@", "text IN %@"] {
            let values: [Any]
            switch format {
            case "identifier IN %@": values = chosen.map { $0.identifier! }
            case "bytes IN %@": values = chosen.map { $0.bytes! }
            default: values = chosen.map { $0.text! }
            }
            let fetch: FetchRequest<Sample> = Sample.fetchRequest()
            fetch.predicate = try FetchPredicate(parsing: format, argumentArray: [values])
            XCTAssertEqual(Set(try context.fetch(fetch).map(\.objectID)), Set(chosen.map(\.objectID)), format)
        }
    }

    func testLongAndOrChainsWork() throws {
        let terms = expressionDepth + 100
        let ors = (0..<terms).map { "year == \(1_000 + $0 * 3)" }.joined(separator: " OR ")
        let ands = (0..<terms).map { "year != \($0)" }.joined(separator: " AND ")
        let built = FetchPredicate.or((0..<terms).map { FetchPredicate.and([
            FetchPredicate(format: "year >= %d", 1_900 + $0), FetchPredicate(format: "title BEGINSWITH[c] %@", "v"),
        ]) })
        try assertAgreement([
            try FetchPredicate(parsing: ors),
            try FetchPredicate(parsing: "NOT (\(ors))"),
            try FetchPredicate(parsing: ands),
            try FetchPredicate(parsing: "title != 'Rope' AND (\(ors)) AND (\(ands))"),
            built,
            .not(built),
        ])
    }

    func testDeepAlternationsWork() throws {
        var predicates: [FetchPredicate] = []
        for pattern in ["year > 1950 OR NOT (", "NOT (title == 'Rope' OR ", "title CONTAINS 'o' AND NOT (year < 1960 OR ",
                        "NOT NOT (", "(", "rating == nil OR (rating > 1 AND ("] {
            let opens = pattern.filter { $0 == "(" }.count
            var accepted: [FetchPredicate] = []
            var levels = 1
            while true {
                let format = String(repeating: pattern, count: levels + 1) + "year > 1920" + String(repeating: ")", count: (levels + 1) * opens)
                guard let predicate = try? FetchPredicate(parsing: format) else { break }
                levels += 1
                accepted.append(predicate)
            }
            XCTAssertGreaterThan(levels, 10, pattern)
            // The shallow ones across the switch to CASE, and the two deepest (both parities).
            predicates += accepted.prefix(6) + accepted.suffix(2)
        }
        try assertAgreement(predicates)
    }
}
