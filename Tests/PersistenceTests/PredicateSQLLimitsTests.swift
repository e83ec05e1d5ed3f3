import Foundation
import Persistence
import XCTest

/// SQL works wherever memory evaluation does: long IN lists, long AND/OR chains and deeply alternating NOT/OR stay
/// within SQLite's limits (its parser stack, its expression depth, its number of arguments).
final class PredicateSQLLimitsTests: PersistenceTestCase {
    private func build(_ context: ManagedObjectContext) {
        let titles = ["Vertigo", "vertigo", "Rope", "Psycho", "Ann\0", "Ann", "naïve", "日本", "", "Héroes"]
        for (index, title) in titles.enumerated() {
            let movie = makeMovie(title, year: 1_900 + index * 7, in: context)
            movie.rating = index % 3 == 0 ? nil : index % 4 == 1 ? .infinity : Double(index) / 3
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
        let years = Array(0..<5_000).map { 1_000 + $0 } as [Any] + [NSNull()]
        var titles: [Any] = (0..<3_000).map { "title \($0)" }
        titles += ["Ann\0", "VERTIGO", "naïve", "日本", "", "\"quoted\\\"", "tab\there"]
        let ratings: [Any] = (0..<2_000).map { Double($0) / 3 } + [Double.infinity, -Double.infinity, Double.nan]
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
        let request = Movie.fetchRequest()
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
            let fetch = Sample.fetchRequest()
            fetch.predicate = try FetchPredicate(parsing: format, argumentArray: [values])
            XCTAssertEqual(Set(try context.fetch(fetch).map(\.objectID)), Set(chosen.map(\.objectID)), format)
        }
    }

    func testLongAndOrChainsWork() throws {
        let ors = (0..<3_000).map { "year == \(1_000 + $0 * 3)" }.joined(separator: " OR ")
        let ands = (0..<3_000).map { "year != \($0)" }.joined(separator: " AND ")
        let built = FetchPredicate.or((0..<3_000).map { FetchPredicate.and([
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
            var levels = 1
            while true {
                let format = String(repeating: pattern, count: levels + 1) + "year > 1920" + String(repeating: ")", count: (levels + 1) * opens)
                guard let predicate = try? FetchPredicate(parsing: format) else { break }
                levels += 1
                predicates.append(predicate)
            }
            XCTAssertGreaterThan(levels, 10, pattern)
        }
        try assertAgreement(predicates)
    }
}
