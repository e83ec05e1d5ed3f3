import Foundation
import Synchronization
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Core Data's SQL debug log (`-com.apple.CoreData.SQLDebug N`) and migration debug log, as Persistence writes
/// them: each kind of line appears when it should, the levels gate what they add, the SQL logged is the SQL that
/// ran, and any bound value prints on one safe line.
final class SQLDebugLogTests: MigrationTestCase {
    /// Three films saved, read by no context of the test yet.
    @discardableResult
    private func threeFilms() throws -> [ManagedObjectID] {
        let writer = container.newBackgroundContext()
        return try writer.performAndWait {
            let films = [("Alien", 1979), ("Brazil", 1985), ("Casablanca", 1942)].map { title, year in
                let movie = Movie(context: writer)
                movie.title = title
                movie.year = year
                return movie
            }
            try writer.save()
            return films.map(\.objectID)
        }
    }

    /// Films made since 1970, by title: the fetch most tests log.
    private func recentFilms() -> FetchRequest<Movie> {
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: "year >= %d", 1970)
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Movie.title, ascending: true)]
        return request
    }

    /// The lines of `lines` that start with `prefix`, without it.
    private func lines(_ lines: [String], _ prefix: String) -> [String] {
        lines.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    private func matches(_ line: String, _ pattern: String) -> Bool {
        line.range(of: pattern, options: .regularExpression) != nil
    }

    // MARK: Off

    func testOffItWritesNothing() throws {
        try threeFilms()
        let (_, lines) = try PersistenceDebugLog.capture(sqlDebugLevel: 0) {
            _ = try context.fetch(recentFilms())
            makeMovie("Dune")
            try context.save()
        }
        XCTAssertEqual(lines, [])
    }

    func testCaptureRestoresTheLevels() throws {
        let before = (PersistenceDebugLog.sqlDebugLevel, PersistenceDebugLog.migrationDebugLevel)
        let (level, _) = PersistenceDebugLog.capture(sqlDebugLevel: 3, migrationDebugLevel: 1) {
            PersistenceDebugLog.sqlDebugLevel
        }
        XCTAssertEqual(level, 3)
        XCTAssertEqual(PersistenceDebugLog.sqlDebugLevel, before.0)
        XCTAssertEqual(PersistenceDebugLog.migrationDebugLevel, before.1)
        PersistenceDebugLog.sqlDebugLevel = 9
        XCTAssertEqual(PersistenceDebugLog.sqlDebugLevel, 4, "levels are clamped to 0…4")
        PersistenceDebugLog.sqlDebugLevel = before.0
    }

    func testTheLaunchArgumentGivesTheLevel() {
        let name = "-com.apple.CoreData.SQLDebug"
        XCTAssertEqual(PersistenceDebugLog.level(after: name, in: ["App", name, "1"]), 1)
        XCTAssertEqual(PersistenceDebugLog.level(after: name, in: ["App", "-other", "2", name, "3"]), 3)
        XCTAssertEqual(PersistenceDebugLog.level(after: name, in: ["App", name, "7"]), 4)
        XCTAssertNil(PersistenceDebugLog.level(after: name, in: ["App", name]))
        XCTAssertNil(PersistenceDebugLog.level(after: name, in: ["App", name, "YES"]))
        XCTAssertNil(PersistenceDebugLog.level(after: name, in: ["App"]))
    }

    // MARK: Fetches

    func testAFetchShowsItsSQLItsTimesAndItsRows() throws {
        try threeFilms()
        let (films, lines) = try PersistenceDebugLog.capture { try context.fetch(recentFilms()) }
        XCTAssertEqual(films.map(\.title), ["Alien", "Brazil"])
        XCTAssertEqual(lines.count, 3, "\(lines)")
        let sql = try XCTUnwrap(lines.first)
        XCTAssertTrue(sql.hasPrefix("CoreData: sql: SELECT t0.Z_PK, t0.Z_OPT, "), sql)
        XCTAssertTrue(sql.contains(" FROM ZMOVIE t0 WHERE ") && sql.contains(" ORDER BY "), sql)
        XCTAssertTrue(matches(lines[1], #"^CoreData: annotation: sql connection fetch time: \d+\.\d{4}s\.$"#), lines[1])
        XCTAssertTrue(matches(lines[2], #"^CoreData: annotation: total fetch execution time: \d+\.\d{4}s for 2 rows\.$"#), lines[2])
    }

    /// The statement logged, run again with the values logged, returns the rows the fetch returned, in its order.
    func testTheLoggedSQLIsTheSQLThatRan() throws {
        try threeFilms()
        let (films, lines) = try PersistenceDebugLog.capture(sqlDebugLevel: 2) { try context.fetch(recentFilms()) }
        let sql = try XCTUnwrap(self.lines(lines, "CoreData: sql: ").first)
        let bindings = self.lines(lines, "CoreData: details: SQLite bind[")
        XCTAssertEqual(bindings, ["0] = 1970"])
        let arguments: [SQLiteValue] = bindings.map { .integer(Int64($0.components(separatedBy: " = ")[1])!) }
        let rows = try container.persistentStoreCoordinator.withStore { try $0.connection.query(sql, arguments) }
        XCTAssertEqual(rows.map { $0[0] }, films.map { .integer($0.objectID.primaryKey!) })
    }

    func testLevelsGateBindingsSummariesAndQueryPlans() throws {
        try threeFilms()
        let fetch = { _ = try self.context.fetch(self.recentFilms()) }
        let one = try PersistenceDebugLog.capture(sqlDebugLevel: 1, fetch).lines
        XCTAssertFalse(one.contains { $0.hasPrefix("CoreData: details:") }, "\(one)")
        XCTAssertFalse(one.contains { $0.contains("fetch using SQLiteStatement") }, "\(one)")

        context.reset()
        let two = try PersistenceDebugLog.capture(sqlDebugLevel: 2, fetch).lines
        XCTAssertTrue(two.contains("CoreData: details: SQLite bind[0] = 1970"), "\(two)")
        XCTAssertTrue(two.contains { $0.hasPrefix("CoreData: annotation: fetch using SQLiteStatement <0x")
            && $0.contains("on entity 'Movie' with sql text 'SELECT ") && $0.hasSuffix("' returned 2 rows") }, "\(two)")
        XCTAssertFalse(two.contains { $0.contains("EXPLAIN QUERY PLAN") }, "\(two)")

        context.reset()
        let four = try PersistenceDebugLog.capture(sqlDebugLevel: 4, fetch).lines
        let plan = self.lines(four, "CoreData: details: SQLite: ")
        XCTAssertTrue(plan.first?.hasPrefix("EXPLAIN QUERY PLAN SELECT ") ?? false, "\(four)")
        XCTAssertTrue(plan.dropFirst().contains { $0.contains("SCAN") || $0.contains("SEARCH") },
                      "the plan says how the table is read: \(plan)")
    }

    func testACountShowsTheCountAndNoRows() throws {
        try threeFilms()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: "year < %d", 1980)
        let (count, lines) = try PersistenceDebugLog.capture { try context.count(for: request) }
        XCTAssertEqual(count, 2)
        XCTAssertTrue(lines.first?.hasPrefix("CoreData: sql: SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM ZMOVIE t0 WHERE ") ?? false, "\(lines)")
        XCTAssertTrue(matches(lines.last ?? "", #"^CoreData: annotation: total count request execution time: \d+\.\d{4}s for count of 2\.$"#), "\(lines)")
        XCTAssertTrue(context.registeredObjects.isEmpty)
    }

    func testAnIDsOnlyFetchReadsTheKeysAlone() throws {
        try threeFilms()
        let request = FetchRequest<ManagedObjectID>(entityName: "Movie")
        request.resultType = .managedObjectIDResultType
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let (ids, lines) = try PersistenceDebugLog.capture { try context.fetch(request) }
        XCTAssertEqual(ids.count, 3)
        let sql = self.lines(lines, "CoreData: sql: ")
        XCTAssertEqual(sql.count, 1, "\(sql)")
        XCTAssertTrue(sql.first?.hasPrefix("SELECT t0.Z_PK FROM ZMOVIE t0 ORDER BY ") ?? false, "\(sql)")
        XCTAssertTrue(lines.last?.hasSuffix(" for 3 rows.") ?? false, "\(lines)")
    }

    // MARK: Faults

    func testAFaultFilledFromTheStoreIsAnnotatedWithItsID() throws {
        let ids = try threeFilms()
        let film = try XCTUnwrap(context.object(with: ids[1]) as? Movie)
        let (title, lines) = PersistenceDebugLog.capture { film.title }
        XCTAssertEqual(title, "Brazil")
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[0].hasPrefix("CoreData: sql: SELECT Z_PK, Z_OPT, ") && lines[0].hasSuffix(" FROM ZMOVIE WHERE Z_PK = ?"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("CoreData: annotation: sql connection fetch time: "), lines[1])
        XCTAssertEqual(lines[2], "CoreData: annotation: fault fulfilled from database for : \(ids[1])")
    }

    /// A fetch's faults keep their rows (Core Data's row cache): firing one reads nothing, and the log says nothing.
    func testAFaultFilledFromTheFetchedRowIsNotLogged() throws {
        try threeFilms()
        let films = try context.fetch(recentFilms())
        XCTAssertTrue(films[0].isFault)
        let (title, lines) = PersistenceDebugLog.capture { films[0].title }
        XCTAssertEqual(title, "Alien")
        XCTAssertEqual(lines, [])
    }

    func testAToManyFaultShowsTheRowsItRead() throws {
        let director = Director(context: context)
        director.name = "Ridley"
        for title in ["Alien", "Gladiator"] { makeMovie(title).director = director }
        try context.save()
        let id = director.objectID
        let reader = container.newBackgroundContext()
        let (count, lines) = try reader.performAndWait {
            let copy = try XCTUnwrap(reader.existingObject(with: id) as? Director)
            return PersistenceDebugLog.capture { copy.movies.count }
        }
        XCTAssertEqual(count, 2)
        XCTAssertTrue(lines.first?.hasPrefix("CoreData: sql: SELECT Z_PK FROM ZMOVIE WHERE ZDIRECTOR = ?") ?? false, "\(lines)")
        XCTAssertTrue(lines.contains("CoreData: annotation: to-many relationship fault \"movies\" for objectID \(id) fulfilled from database.  Got 2 rows"), "\(lines)")
    }

    // MARK: Saves

    func testASaveIsOneTransaction() throws {
        let (_, lines) = try PersistenceDebugLog.capture {
            makeMovie("Dune", year: 2021)
            try context.save()
        }
        let sql = self.lines(lines, "CoreData: sql: ")
        XCTAssertEqual(sql.first, "BEGIN IMMEDIATE", "\(sql)")
        XCTAssertEqual(sql.last, "COMMIT", "\(sql)")
        let insert = try XCTUnwrap(sql.firstIndex { $0.hasPrefix("INSERT INTO ZMOVIE (Z_PK, Z_OPT, ") }, "\(sql)")
        XCTAssertTrue(sql.indices.dropFirst().dropLast().contains(insert))
        XCTAssertEqual(sql.filter { $0 == "BEGIN IMMEDIATE" || $0 == "COMMIT" }.count, 2, "one transaction: \(sql)")
    }

    // MARK: Values that print badly

    func testOddBoundValuesPrintOnOneSafeLine() throws {
        let text = "a\u{0}b\n\"c\\\u{1B}\u{2028}é"
        let bytes = Data([0, 255, 10])
        let (_, lines) = try PersistenceDebugLog.capture(sqlDebugLevel: 2) {
            let sample = Sample(context: context)
            sample.text = text
            sample.bytes = bytes
            try context.save()
            let request = FetchRequest<Sample>(entityName: "Sample")
            request.predicate = FetchPredicate(format: "text == %@ AND bytes == %@", text, bytes)
            XCTAssertEqual(try context.fetch(request).count, 1)
        }
        let bindings = self.lines(lines, "CoreData: details: SQLite bind[")
        let quoted = #""a\u{0}b\n\"c\\\u{1b}\u{2028}é""#
        XCTAssertTrue(bindings.contains("0] = \(quoted)"), "\(bindings)")
        XCTAssertTrue(bindings.contains("1] = <3 bytes: 00ff0a>"), "\(bindings)")
        XCTAssertTrue(bindings.contains { $0.hasSuffix(" = <3 bytes: 00ff0a>") && !$0.hasPrefix("1]") }, "the insert's binding too: \(bindings)")
        for line in lines {
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" }, "an unprintable character in \(line.debugDescription)")
        }
    }

    // MARK: Threads

    func testLinesFromManyQueuesAllReachTheCapture() throws {
        try threeFilms()
        let container: PersistentContainer = self.container
        let (_, lines) = PersistenceDebugLog.capture {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let reader = container.newBackgroundContext()
                reader.performAndWait {
                    let request: FetchRequest<Movie> = Movie.fetchRequest()
                    request.predicate = FetchPredicate(format: "year >= %d", 1970)
                    _ = try? reader.fetch(request)
                }
            }
        }
        XCTAssertEqual(lines.filter { $0.hasSuffix(" for 2 rows.") }.count, 8, "\(lines)")
        XCTAssertEqual(lines.filter { $0.hasPrefix("CoreData: sql: SELECT ") }.count, 8, "\(lines)")
    }

    /// An observer is handed every line instead of keeping them, beside a capture open at the same time, which
    /// still gets the same lines; neither leaves a line behind once it is closed.
    func testAnObserverIsHandedEachLineAndACaptureBesideItStillKeepsThem() throws {
        try threeFilms()
        let counted = Mutex(0)
        let container: PersistentContainer = self.container
        @Sendable func fetchRecent(in reader: ManagedObjectContext) {
            let request: FetchRequest<Movie> = Movie.fetchRequest()
            request.predicate = FetchPredicate(format: "year >= %d", 1970)
            _ = try? reader.fetch(request)
        }
        let (_, kept) = PersistenceDebugLog.capture {
            PersistenceDebugLog.observe({ line in
                if line.hasPrefix("CoreData: sql: SELECT ") { counted.withLock { $0 += 1 } }
            }) {
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    let reader = container.newBackgroundContext()
                    reader.performAndWait { fetchRecent(in: reader) }
                }
            }
        }
        XCTAssertEqual(counted.withLock { $0 }, 4)
        XCTAssertEqual(kept.filter { $0.hasPrefix("CoreData: sql: SELECT ") }.count, 4, "\(kept)")
        let (_, after) = PersistenceDebugLog.capture {
            let reader = container.newBackgroundContext()
            reader.performAndWait { fetchRecent(in: reader) }
        }
        XCTAssertEqual(after.filter { $0.hasPrefix("CoreData: sql: SELECT ") }.count, 1)
        XCTAssertEqual(counted.withLock { $0 }, 4, "the closed observer hears nothing more")
    }

    // MARK: Migration

    func testAMigrationShowsItsSteps() throws {
        let v1 = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("title", .string)])])
        let url = try store(v1) { context in insert("Note", ["title": "first"], into: context) }
        let v2 = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [
            .attribute("title", .string), .attribute("pinned", .boolean, defaultValue: false)])])
        let (_, lines) = try PersistenceDebugLog.capture(sqlDebugLevel: 0, migrationDebugLevel: 1) {
            _ = try open(url, v2, versions: [v1])
        }
        let steps = self.lines(lines, "CoreData: annotation: (migration) ")
        XCTAssertEqual(steps.count, lines.count, "only migration lines at SQL level 0: \(lines)")
        XCTAssertTrue(steps.first?.hasPrefix("will attempt automatic schema migration") ?? false, "\(steps)")
        XCTAssertTrue(steps.contains { $0.hasPrefix("inferring a mapping model between data models") }, "\(steps)")
        XCTAssertTrue(steps.contains { $0.hasPrefix("in-place migration of the store at ") }, "\(steps)")
        XCTAssertTrue(matches(steps.last ?? "", #"^in-place migration completed successfully in \d+\.\d{4} seconds$"#), "\(steps)")

        let quiet = try PersistenceDebugLog.capture(sqlDebugLevel: 0, migrationDebugLevel: 0) { _ = try open(url, v2, versions: [v1]) }
        XCTAssertEqual(quiet.lines, [])
    }
}
