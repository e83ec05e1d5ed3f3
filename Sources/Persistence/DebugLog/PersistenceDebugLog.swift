internal import CPersistenceSupport
import Foundation
import Synchronization

/// Core Data's debug logs as Persistence writes them: the SQL debug log (`-com.apple.CoreData.SQLDebug N`) and
/// the migration debug log (`-com.apple.CoreData.MigrationDebug N`), on standard error, in Core Data's format.
///
/// As on Apple, the launch arguments turn them on: `swift run MyApp -com.apple.CoreData.SQLDebug 1` (in Xcode, the
/// scheme's Arguments Passed On Launch). So do the environment variables `PERSISTENCE_SQL_DEBUG=N` and
/// `PERSISTENCE_MIGRATION_DEBUG=N`, which a test run can set. What each level adds:
///
/// - 1: every statement the store runs (`CoreData: sql: SELECT …`), a fetch's `sql connection fetch time` and
///   `total fetch execution time: …s for N rows.`, a count's `total count request execution time`, a fault
///   filled from the store (`fault fulfilled from database for : <ID>`), a to-many relationship read.
/// - 2: also each bound value (`CoreData: details: SQLite bind[0] = 18`) and a summary of each fetch.
/// - 3: as 2 (Core Data's level 3 also lists the fetched objects; this log never names an object).
/// - 4: also the query plan SQLite chose for each `SELECT` (its `EXPLAIN QUERY PLAN`).
///
/// This type has no Core Data counterpart: it is how code — a test, a kata, a lab — switches the logs and reads them,
/// so it is declared in the `TestHarness` SPI group (`@_spi(TestHarness) import Persistence`); an app switches the
/// logs as on Apple platforms, with the launch arguments or the environment variables. Turned off (the default), the
/// store pays one check of a flag per statement and per bound value.
@_spi(TestHarness)
public enum PersistenceDebugLog {
    /// The SQL debug log's level, from 0 (off) to 4; values out of range are clamped.
    public static var sqlDebugLevel: Int {
        get {
            readLaunchArguments()
            return Int(persistence_sql_debug_level())
        }
        set {
            readLaunchArguments()
            persistence_set_sql_debug_level(Int32(min(max(newValue, 0), 4)))
        }
    }

    /// The migration debug log's level, 0 (off) or more: each step of a migration the store runs.
    public static var migrationDebugLevel: Int {
        get {
            readLaunchArguments()
            return Int(persistence_migration_debug_level())
        }
        set {
            readLaunchArguments()
            persistence_set_migration_debug_level(Int32(min(max(newValue, 0), 4)))
        }
    }

    /// Runs `body` with the logs at the levels given and returns, with its result, the lines they wrote meanwhile
    /// (from any thread), which then do not reach standard error. The previous levels come back afterwards.
    ///
    /// Captures may overlap (each gets every line written while it is open); the levels are then those of the
    /// last one to start until it ends.
    public static func capture<T>(sqlDebugLevel: Int = 1, migrationDebugLevel: Int = 0,
                                  _ body: () throws -> T) rethrows -> (result: T, lines: [String]) {
        let (result, sink) = try open(.lines([]), sqlDebugLevel: sqlDebugLevel,
                                      migrationDebugLevel: migrationDebugLevel, body)
        guard case .lines(let lines) = sink else { return (result, []) }
        return (result, lines)
    }

    /// Runs `body` with the logs at the levels given and hands each line they write meanwhile to `line` instead of
    /// keeping it (nor does it reach standard error): for a long run whose lines would be too many to keep, such as
    /// a lab that counts the statements of an import. `line` is called on the writing thread, one line at a time,
    /// with the log's lock held: keep it short.
    public static func observe<T>(sqlDebugLevel: Int = 1, migrationDebugLevel: Int = 0,
                                  _ line: @escaping @Sendable (String) -> Void,
                                  _ body: () throws -> T) rethrows -> T {
        try open(.handler(line), sqlDebugLevel: sqlDebugLevel, migrationDebugLevel: migrationDebugLevel, body).0
    }

    /// Opens `sink`, runs `body` at the levels given, and closes the sink again, also when `body` throws.
    private static func open<T>(_ sink: Sink, sqlDebugLevel: Int, migrationDebugLevel: Int,
                                _ body: () throws -> T) rethrows -> (T, Sink) {
        let previous = (self.sqlDebugLevel, self.migrationDebugLevel)
        let id = sinks.withLock { sinks -> Int in
            sinks.next += 1
            sinks.open[sinks.next] = sink
            return sinks.next
        }
        self.sqlDebugLevel = sqlDebugLevel
        self.migrationDebugLevel = migrationDebugLevel
        func finish() -> Sink {
            self.sqlDebugLevel = previous.0
            self.migrationDebugLevel = previous.1
            return sinks.withLock { $0.open.removeValue(forKey: id) } ?? sink
        }
        let result: T
        do {
            result = try body()
        } catch {
            _ = finish()
            throw error
        }
        return (result, finish())
    }

    // MARK: Writing

    /// Where an open capture puts the lines written while it is open.
    private enum Sink {
        /// Kept, for ``capture(sqlDebugLevel:migrationDebugLevel:_:)``.
        case lines([String])
        /// Handed on, for ``observe(sqlDebugLevel:migrationDebugLevel:_:_:)``.
        case handler(@Sendable (String) -> Void)

        /// Keeps `line`, in place: the array is let go of before it grows, so the append does not copy it.
        mutating func append(_ line: String) {
            guard case .lines(var lines) = self else { return }
            self = .lines([])
            lines.append(line)
            self = .lines(lines)
        }
    }

    /// The open captures, each with the lines written since it opened.
    private struct Sinks {
        var next = 0
        var open: [Int: Sink] = [:]
    }

    private static let sinks = Mutex(Sinks())

    /// Whether the SQL log is on: the one check the store makes before it builds any text.
    @inline(__always)
    static var isSQLOn: Bool { persistence_sql_debug_level() != 0 }

    /// The SQL log's level (0 when off), without reading the launch arguments again.
    @inline(__always)
    static var sqlLevel: Int { Int(persistence_sql_debug_level()) }

    /// Whether the migration log is on.
    static var isMigrationOn: Bool {
        readLaunchArguments()
        return persistence_migration_debug_level() != 0
    }

    /// Writes one line: to every open capture, or to standard error when none is open.
    static func write(_ line: String) {
        let captured = sinks.withLock { sinks -> Bool in
            guard !sinks.open.isEmpty else { return false }
            for id in Array(sinks.open.keys) {
                if case .handler(let handler)? = sinks.open[id] {
                    handler(line)
                } else {
                    sinks.open[id]?.append(line)
                }
            }
            return true
        }
        if !captured { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// Writes a line of the migration log (`CoreData: annotation: (migration) …`) when it is on.
    static func migration(_ message: @autoclosure () -> String) {
        guard isMigrationOn else { return }
        write("CoreData: annotation: (migration) " + message())
    }

    // MARK: Launch arguments

    /// Reads `-com.apple.CoreData.SQLDebug N` and `-com.apple.CoreData.MigrationDebug N` from the process's
    /// arguments, once (Foundation's user defaults take launch arguments of this shape on Apple). A level given
    /// there wins over the environment variable.
    static func readLaunchArguments() {
        _ = launchArguments
    }

    private static let launchArguments: Void = {
        let arguments = ProcessInfo.processInfo.arguments
        if let level = level(after: "-com.apple.CoreData.SQLDebug", in: arguments) {
            persistence_set_sql_debug_level(Int32(level))
        }
        if let level = level(after: "-com.apple.CoreData.MigrationDebug", in: arguments) {
            persistence_set_migration_debug_level(Int32(level))
        }
    }()

    /// The level that follows `name` in `arguments` (a whole number, clamped to 0…4), or nil.
    static func level(after name: String, in arguments: [String]) -> Int? {
        guard let position = arguments.firstIndex(of: name), position + 1 < arguments.count,
              let level = Int(arguments[position + 1]) else { return nil }
        return min(max(level, 0), 4)
    }
}
