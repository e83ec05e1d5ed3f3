import Foundation
import KataSupport
import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 6 — Faults and fetching. Katas 1–3: questions about many readings — fetched filled for an aggregate,
/// counted by the store; 4: a lookup by ID that checks the store; 5–6: a data source that fetches only IDs in the
/// background and makes objects on the main context one row at a time.
final class Kata06FaultsAndFetching: KataCase {
    override class var lesson: Int { 6 }
    override class var folder: String { "06-faults-and-fetching" }
    override class func makeModel() throws -> ManagedObjectModel { try WeatherModel.shared() }

    // MARK: Readings

    /// One reading to store: its station, the hour it was taken (counted from ``hour(_:)``'s start) and its value.
    private struct Sample {
        var station: String
        var hour: Int
        var celsius: Double
    }

    /// The moment `n` hours after the start of the log.
    private func hour(_ n: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: 790_000_000 + Double(n) * 3600)
    }

    /// The hour of `date`, the inverse of ``hour(_:)``.
    private func hourOf(_ date: Date) -> Int {
        Int(((date.timeIntervalSinceReferenceDate - 790_000_000) / 3600).rounded())
    }

    /// Two days of hourly readings at the harbour and on the hill, in a scrambled order (a store returns rows in
    /// no promised order, so the order of the results must come from a sort). Values are fixed, not random:
    /// a failure must be the same on every run.
    private func twoDays() -> [Sample] {
        var samples: [Sample] = []
        for hour in 0..<48 {
            let harbour = Double((hour * 7) % 23) - 6          // −6 … 16, exactly 0.0 at hours 14 and 37
            samples.append(Sample(station: "Harbour", hour: hour, celsius: harbour))
            samples.append(Sample(station: "Hill", hour: hour, celsius: harbour - 9))
        }
        // A fixed shuffle: every fifth sample first, then the rest.
        return stride(from: 0, to: samples.count, by: 5).map { samples[$0] }
            + samples.indices.filter { $0 % 5 != 0 }.map { samples[$0] }
    }

    /// Saves `samples` through a background context of its own, so that the kata's `context` has none of them
    /// in memory, and returns their IDs in the same order.
    @discardableResult
    private func save(_ samples: [Sample]) throws -> [ManagedObjectID] {
        let writer = container.newBackgroundContext()
        let start = hour(0)
        return try writer.performAndWait {
            let readings = samples.map { sample in
                let reading = Reading(context: writer)
                reading.station = sample.station
                reading.takenAt = start.addingTimeInterval(Double(sample.hour) * 3600)
                reading.celsius = sample.celsius
                return reading
            }
            try writer.save()
            return readings.map(\.objectID)
        }
    }

    /// Deletes the readings with `ids` through a background context, and saves.
    private func deleteInTheStore(_ ids: [ManagedObjectID]) throws {
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for id in ids { writer.delete(try writer.existingObject(with: id)) }
            try writer.save()
        }
    }

    /// How many readings the kata's context holds in memory. It keeps an unchanged object only while something
    /// holds it (as on Core Data), so the katas that count what the code made first set the context's
    /// `retainsRegisteredObjects`: then the count includes the objects the code made and dropped.
    private var readingsInContext: Int {
        context.registeredObjects.filter { $0 is Reading }.count
    }

    /// What ``watchArrivals(_:)`` saw: how many readings received their values from the store, and how many other
    /// readings of the same context were still faults at the moment the first one did.
    private final class Arrivals: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        var faultsAtFirst = 0
    }

    /// Runs `body` while watching readings receive their values (`awakeFromFetch()`, which runs during the fetch
    /// for a request that returns filled objects, and when a fault fires otherwise).
    private func watchArrivals<T>(_ body: () throws -> T) throws -> (T, Arrivals) {
        let arrivals = Arrivals()
        Reading.arrivals.observe { reading in
            let first = arrivals.lock.withLock { arrivals.count == 0 }
            // On the reading's own queue: the observer runs where its context works.
            let faults = first ? (reading.managedObjectContext?.registeredObjects ?? [])
                .filter { $0 !== reading && $0 is Reading && $0.isFault }.count : 0
            arrivals.lock.withLock {
                if arrivals.count == 0 { arrivals.faultsAtFirst = faults }
                arrivals.count += 1
            }
        }
        defer { Reading.arrivals.observe(nil) }
        return (try body(), arrivals)
    }

    // MARK: Many objects at once

    func test01_readingsForAnAggregateArriveFilled() {
        kata(1, in: "ReadingStatistics.swift", "readings(of:from:before:)") {
            try save(twoDays())
            context.retainsRegisteredObjects = true     // to count every reading made, kept or not
            let statistics = ReadingStatistics(context: context)
            // The SQL debug log (Core Data's -com.apple.CoreData.SQLDebug 1) shows what the store was asked.
            let ((readings, log), arrivals) = try watchArrivals {
                try SQLLog.capture { try statistics.readings(of: "Harbour", from: hour(10), before: hour(20)) }
            }
            // Asked before any value is read: reading one would fire it.
            let faults = readings.filter(\.isFault).count
            try expect(faults == 0, "\(faults) of the \(readings.count) readings came back as faults (isFault is "
                + "true). A fetch request returns faults unless told otherwise, and every one of them fires when "
                + "the average reads its celsius. These readings are all about to be read: have the request return "
                + "them with their values in place.")
            try expect(arrivals.faultsAtFirst == 0, "the readings came back filled, but not from the fetch: when the "
                + "first of them received its values, \(arrivals.faultsAtFirst) other readings in the context were "
                + "still faults. The fetch returned faults and something fired them one by one afterwards — each "
                + "read of a value fires one. Leave the values alone, and have the fetch request itself return the "
                + "objects filled.")
            try expect(readings.allSatisfy { $0.managedObjectContext === context }, "the readings belong to another "
                + "context than the statistics' own: fetch in `context`, the one the caller gave.")
            let stations = Set(readings.map(\.station))
            try expect(stations == ["Harbour"] || readings.isEmpty, "the readings come from the stations "
                + "\(stations.sorted()), not only \"Harbour\": the predicate must ask for the station too.")
            let made = readingsInContext
            try expect(made == readings.count, "to return \(readings.count) readings the context made \(made): the "
                + "others were fetched and thrown away. Let the predicate choose the readings, so the store sends "
                + "only those.")
            let hours = readings.map { hourOf($0.takenAt) }
            try expect(!hours.contains(20), "the readings include the one taken exactly at `end` (hour 20): the period "
                + "runs up to, but not including, its end — takenAt < end, not <=.")
            try expect(!hours.contains(9), "the readings include one taken before `start` (hour 9).")
            try expect(Set(hours) == Set(10..<20), "the readings of hours 10 to 19 were asked for; the fetch returned "
                + "hours \(hours.sorted()).")
            try expect(hours == Array(10..<20), "the readings are in the order of hours \(hours); oldest first was "
                + "asked for — the store promises no order without a sort descriptor.")
            if let fetch = log.fetches(from: "ZREADING").first {
                try expect(fetch.orderBy?.contains("ZTAKENAT") == true, "the readings are in the right order, but the "
                    + "store was not asked for it — the SQL debug log shows\n    \(fetch.sql)\nwith no ORDER BY on "
                    + "takenAt (ZTAKENAT): they were sorted in Swift after the fetch. That holds for ten readings; "
                    + "once the request has a fetchLimit or a fetchBatchSize, or feeds a fetched results controller, "
                    + "the store chooses the rows before Swift sees them, and only the request's own order counts.")
            }
            // A station named as people name them, with an apostrophe.
            try save([Sample(station: "Fisherman's Rest", hour: 12, celsius: 3),
                      Sample(station: "Fisherman's Rest", hour: 13, celsius: 2)])
            let rest = try statistics.readings(of: "Fisherman's Rest", from: hour(10), before: hour(20))
            try expect(rest.map { hourOf($0.takenAt) } == [12, 13], "readings(of: \"Fisherman's Rest\", …) returned "
                + "the readings of hours \(rest.map { hourOf($0.takenAt) }) instead of 12 and 13: a station whose name "
                + "has an apostrophe must be found like any other. A name written into the format string itself ends "
                + "its quoted string at the apostrophe (on a device, a malformed format stops the app); a value passed "
                + "as an argument of the format is never read as part of it.")
            // Two more stations in the period: a second sensor whose name was typed in lower case, and a provisional
            // one marked with an asterisk. Each is a station of its own.
            try save([Sample(station: "harbour", hour: 11, celsius: 30),
                      Sample(station: "Harbour*", hour: 15, celsius: 31)])
            let harbour = try statistics.readings(of: "Harbour", from: hour(10), before: hour(20))
            let strays = Set(harbour.map(\.station)).subtracting(["Harbour"]).sorted()
            try expect(strays.isEmpty, "readings(of: \"Harbour\", …) also returned the readings of \(strays): the "
                + "station's name was matched loosely — ignoring case, or as the start of a name. \"harbour\" is "
                + "another sensor, not the harbour's: a station is the one whose name is exactly the name asked for.")
            let starred = try statistics.readings(of: "Harbour*", from: hour(10), before: hour(20))
            let starredStations = Set(starred.map(\.station)).sorted()
            try expect(starredStations == ["Harbour*"] && starred.count == 1, "readings(of: \"Harbour*\", …) returned "
                + "\(starred.count) readings of \(starredStations) instead of the one reading of \"Harbour*\": the name "
                + "was read as a pattern, where * stands for any characters. A name a user typed is matched as it is "
                + "written, whatever characters it holds.")
        }
    }

    func test02_averageOfAPeriod() {
        kata(2, in: "ReadingStatistics.swift", "averageCelsius(of:from:before:)") {
            let samples = twoDays()
            try save(samples)
            let statistics = ReadingStatistics(context: context)
            let period = samples.filter { $0.station == "Harbour" && (6..<30).contains($0.hour) }.map(\.celsius)
            let expected = period.reduce(0, +) / Double(period.count)
            let (maybeAverage, arrivals) = try watchArrivals {
                try statistics.averageCelsius(of: "Harbour", from: hour(6), before: hour(30))
            }
            let average = try require(maybeAverage,
                                      "averageCelsius(of:from:before:) returned nil for a day with 24 readings.")
            let withEnd = samples.filter { $0.station == "Harbour" && (6...30).contains($0.hour) }.map(\.celsius)
            let both = samples.filter { (6..<30).contains($0.hour) }.map(\.celsius)
            if abs(average - withEnd.reduce(0, +) / Double(withEnd.count)) < 1e-9 {
                try expect(false, "the average includes the reading taken exactly at `end`: the period runs up to, "
                    + "but not including, its end.")
            }
            if abs(average - both.reduce(0, +) / Double(both.count)) < 1e-9 {
                try expect(false, "the average mixes the hill's readings into the harbour's: ask for the station.")
            }
            try expect(abs(average - expected) < 1e-9, "the harbour's average from hour 6 to hour 29 is "
                + "\(expected) °C; averageCelsius(of:from:before:) returned \(average).")
            try expect(arrivals.faultsAtFirst == 0, "the average is right, but its readings came back as faults and "
                + "fired one by one as the sum read them: when the first received its values, \(arrivals.faultsAtFirst) "
                + "other readings were still faults. Every reading of the period is about to be read — the case kata "
                + "1's method was written for.")
            let empty = try statistics.averageCelsius(of: "Harbour", from: hour(100), before: hour(110))
            try expect(empty == nil, "a period without readings has no average, but averageCelsius(of:from:before:) "
                + "returned \(empty.map { "\($0) °C" } ?? "") — a temperature someone would believe. Return nil "
                + "when there is nothing to average.")
        }
    }

    func test03_countLetsTheStoreCount() {
        kata(3, in: "ReadingStatistics.swift", "count(of:below:)") {
            let samples = twoDays()
            try save(samples)
            context.retainsRegisteredObjects = true     // to count every reading made, kept or not
            try expect(readingsInContext == 0, "the kata's context holds readings before the count (a mistake in "
                + "the kata, not in your code).")
            let statistics = ReadingStatistics(context: context)
            // The SQL debug log (Core Data's -com.apple.CoreData.SQLDebug 1) shows what the store was asked.
            let (count, log) = try SQLLog.capture { try statistics.count(of: "Harbour", below: 0) }
            let expected = samples.filter { $0.station == "Harbour" && $0.celsius < 0 }.count
            let atZero = samples.filter { $0.station == "Harbour" && $0.celsius == 0 }.count
            let hill = samples.filter { $0.station == "Hill" && $0.celsius < 0 }.count
            try expect(count != expected + atZero, "count(of:below: 0) counted the \(atZero) readings of exactly "
                + "0 °C: below means strictly below — celsius < value, not <=.")
            try expect(count != expected + hill, "count(of:below:) counted the hill's readings too: ask for the "
                + "station.")
            try expect(count == expected, "the harbour has \(expected) readings below 0 °C; count(of:below:) "
                + "returned \(count).")
            if let rows = log.fetches(from: "ZREADING").first(where: { !$0.valueColumns.isEmpty }) {
                try expect(false, "to count, count(of:below:) had the store send the readings themselves — the SQL "
                    + "debug log shows\n    \(rows.sql)\nreading the values (\(rows.valueColumns.joined(separator: ", ")))"
                    + " of \(rows.rows) rows, each made into an object only to be counted. Ask the context for the "
                    + "number instead: no reading's values need to leave the store for it.")
            }
            let made = readingsInContext
            try expect(made == 0, "the count is right, but to get it the context made \(made) reading objects: "
                + "fetching builds an object for every match only for the array to be "
                + "counted. Ask the context for the number instead, and let the store count the rows.")
            // The caller now has unsaved work in the same context — a frost at the harbour typed in, not saved
            // yet — and counts again. The count includes it, as a fetch would, and leaves it where it is.
            let typedIn = Reading(context: context)
            typedIn.station = "Harbour"
            typedIn.takenAt = hour(60)
            typedIn.celsius = -3
            let again = try statistics.count(of: "Harbour", below: 0)
            try expect(again == expected + 1, "counted again while the context held an unsaved harbour reading of "
                + "−3 °C, count(of:below:) returned \(again) instead of \(expected + 1). A context's count answers as "
                + "its fetch would, unsaved work included — the user who just typed a frost in expects it counted. A "
                + "count in another context, or one told to leave pending changes out, sees only what is saved.")
            try expect(typedIn.managedObjectContext === context && context.insertedObjects.contains(typedIn),
                       "count(of:below:) threw away the caller's unsaved work: a reading inserted in the context "
                + "before the count, not saved yet, is no longer in it (the context \(context.hasChanges ? "still has" : "has no") "
                + "unsaved changes). Clearing the context after fetching (reset()) takes every object the caller holds "
                + "with it. Counting must change nothing — and the store's own count leaves nothing to clear.")
            // Station names as people type them: one that starts like another, one with an apostrophe.
            try save([Sample(station: "Harbour Wall", hour: 70, celsius: -2),
                      Sample(station: "Fisherman's Rest", hour: 70, celsius: -1),
                      Sample(station: "Fisherman's Rest", hour: 71, celsius: -4)])
            let withWall = try statistics.count(of: "Harbour", below: 0)
            try expect(withWall == expected + 1, "once a station named \"Harbour Wall\" had a frost too, "
                + "count(of: \"Harbour\", below: 0) returned \(withWall) instead of \(expected + 1): it counted a "
                + "station whose name only starts with \"Harbour\". A station is matched by its whole name.")
            let rest = try statistics.count(of: "Fisherman's Rest", below: 0)
            try expect(rest == 2, "count(of: \"Fisherman's Rest\", below: 0) returned \(rest) instead of 2: a "
                + "station whose name has an apostrophe must be counted like any other. A name written into the "
                + "format string itself ends its quoted string at the apostrophe (on a device, a malformed format "
                + "stops the app); a value passed as an argument of the format is never read as part of it.")
            // A second sensor typed in lower case, and a provisional one marked with an asterisk: stations of their own.
            try save([Sample(station: "harbour", hour: 72, celsius: -5),
                      Sample(station: "Harbour*", hour: 72, celsius: -6)])
            let exact = try statistics.count(of: "Harbour", below: 0)
            try expect(exact == expected + 1, "once a station named \"harbour\" had a frost too, count(of: \"Harbour\", "
                + "below: 0) returned \(exact) instead of \(expected + 1): the name was matched ignoring its case. "
                + "\"harbour\" is another sensor; a station is the one whose name is exactly the name asked for.")
            let starred = try statistics.count(of: "Harbour*", below: 0)
            try expect(starred == 1, "count(of: \"Harbour*\", below: 0) returned \(starred) instead of 1: the name was "
                + "read as a pattern, where * stands for any characters, and counted the harbour's frosts with it. A "
                + "name a user typed is matched as it is written, whatever characters it holds.")
        }
    }

    // MARK: From an ID to an object

    /// A context on a store file that can no longer be read, and the ID of a reading saved there before the damage:
    /// the file's pages after the first are overwritten, as on a failing disk. (On a device the same answer — an
    /// error that is not "no such object" — comes from a file that is damaged, or locked by data protection while
    /// the device is.) The reading's row is still in the file, as far as anyone knows; only reading it fails.
    private func unreadableStore() throws -> (context: ManagedObjectContext, id: ManagedObjectID) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Kata06-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Weather.sqlite")
        func open() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Weather", managedObjectModel: try Self.makeModel())
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            var loadError: (any Error)?
            container.loadPersistentStores { _, error in loadError = error }
            if let loadError { throw loadError }
            return container
        }
        func close(_ container: PersistentContainer) throws {
            for store in container.persistentStoreCoordinator.persistentStores {
                try container.persistentStoreCoordinator.remove(store)
            }
        }
        let writer = try open()
        let reading = Reading(context: writer.viewContext)
        reading.station = "Harbour"
        reading.takenAt = hour(3)
        reading.celsius = 7
        try writer.viewContext.save()
        let id = reading.objectID
        try close(writer)
        let damaged = try open()
        addTeardownBlock {
            try? close(damaged)
            try? FileManager.default.removeItem(at: folder)
        }
        let file = try FileHandle(forUpdating: url)
        defer { try? file.close() }
        let size = try file.seekToEnd()
        try file.seek(toOffset: 4096)                       // SQLite's first page (the file's header) is left alone
        try file.write(contentsOf: Data(repeating: 0xA5, count: Int(max(size, 8192)) - 4096))
        return (damaged.viewContext, id)
    }

    func test04_lookupChecksTheStore() {
        kata(4, in: "ManagedObjectContext+ReadingLookup.swift", "reading(with:)") {
            let ids = try save([Sample(station: "Harbour", hour: 1, celsius: 4.5),
                                Sample(station: "Harbour", hour: 2, celsius: 5.5)])
            try deleteInTheStore([ids[1]])                  // the second reading is gone from the store
            if let gone = try context.reading(with: ids[1]) {
                let state = gone.isFault ? "is a fault"
                    : "reads as \(gone.isDeleted ? "deleted" : "saved"), station \"\(gone.station)\", \(gone.celsius) °C"
                try expect(false, "reading(with:) returned an object for a reading that was deleted from the store "
                    + "(it \(state)). object(with:) takes the row's existence on trust: the fault it may return only "
                    + "fails later, when it fires and finds no row. Use the lookup that reads the store and throws "
                    + "when the row is gone — and return nil then.")
            }
            let found = try require(try context.reading(with: ids[0]), "reading(with:) returned nil for a reading "
                + "the store holds. This context has not fetched it yet: asking only what the context already holds "
                + "in memory (registeredObject(for:)) finds nothing; look it up in the store.")
            try expect(found.managedObjectContext === context, "the reading belongs to another context: look it "
                + "up in the context the method was called on (self).")
            try expect(!found.isFault, "reading(with:) returned a fault: nothing has checked yet that its row "
                + "exists. Look it up so that the row is read now.")
            try expect(found.station == "Harbour" && found.celsius == 4.5, "the reading found reads station "
                + "\"\(found.station)\" and \(found.celsius) °C; the store holds \"Harbour\", 4.5 °C.")
            // The caller now holds that reading with an unsaved change, and looks it up again.
            found.celsius = 6
            let again = try require(try context.reading(with: ids[0]), "reading(with:) returned nil for a reading "
                + "the context holds, with an unsaved change.")
            try expect(again === found && again.celsius == 6 && context.hasChanges, "looked up again while the "
                + "caller held it with an unsaved change (6 °C), reading(with:) returned "
                + "\(again === found ? "the same object" : "another object"), reading \(again.celsius) °C, and the "
                + "context \(context.hasChanges ? "still has" : "lost its") unsaved changes. A lookup must not "
                + "touch what the caller holds: refreshing an object without merging, to force a store read, throws "
                + "its changes away. "
                + "The lookup that reads the store hands back the context's own object when it has one.")

            // An ID handed over before its reading was ever saved: the reading exists only in another context, as a
            // temporary object. No store has a row for it — for this context it does not exist.
            let elsewhere = container.newBackgroundContext()
            let unsavedID = elsewhere.performAndWait {
                let draft = Reading(context: elsewhere)
                draft.station = "Harbour"
                draft.takenAt = hour(4)
                draft.celsius = 8
                return draft.objectID
            }
            let unsavedAnswer: Reading?
            do {
                unsavedAnswer = try context.reading(with: unsavedID)
            } catch {
                try expect(false, "reading(with:) threw for the ID of a reading another context made and never saved "
                    + "(\(error)): for this context no such reading exists — the \"no such object\" case, which its "
                    + "documentation promises to answer with nil.")
                return
            }
            if let draft = unsavedAnswer {
                let shape = draft.isFault ? "a fault" : "reading \(draft.celsius) °C"
                try expect(false, "reading(with:) returned an object (\(shape)) for the ID of a reading another "
                    + "context made and never saved: nothing in the store backs it, and this context cannot see the "
                    + "other context's object. Its documentation promises nil for a reading that was never saved.")
            }

            // A store that cannot be read: the lookup fails with another error than "no such object".
            let (unreadable, savedThere) = try unreadableStore()
            do {
                let answer = try unreadable.reading(with: savedThere)
                try expect(false, "reading(with:) returned \(answer == nil ? "nil — \"gone\" —" : "a reading") for "
                    + "a reading whose store could not be read (the file is damaged): the lookup failed, with another "
                    + "error than \"no such object\". The reading may well still be there; a caller told it is gone "
                    + "drops it from the list, or deletes what refers to it. Only the \"no such object\" error means "
                    + "gone: pass every other error on to the caller.")
            } catch let error as CocoaError where error.code == .managedObjectReferentialIntegrity {
                try expect(false, "reading(with:) threw 133000, \"no such object\", for a reading whose store could "
                    + "not be read (the file is damaged): "
                    + "the caller can no longer tell a reading that is gone from a store that cannot be read. Pass "
                    + "other errors on as they are.")
            } catch {
                // Passed on: the caller hears that the store could not be read.
            }
        }
    }

    // MARK: A data source that keeps only IDs

    /// Runs the data source's fetch and waits for its completion on a blocked main thread: a fetch that needs the
    /// main queue (the view context's) cannot finish then, which is the point of fetching in the background.
    /// Returns the error the completion reported, if any.
    private func completionError(of source: ReadingDataSource) throws -> (any Error)? {
        final class Outcome: @unchecked Sendable {
            let lock = NSLock()
            var error: (any Error)?
            var calls = 0
            var callerHeld = false
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        // The completion waits (at most two seconds) for fetch(completion:) to return to its caller: a fetch that
        // hands its work over returns at once; one that holds its caller until the completion has run cannot.
        let returned = DispatchSemaphore(value: 0)
        source.fetch { error in
            let callerWasFree = error is KataNotDone || returned.wait(timeout: .now() + 2) == .success
            outcome.lock.withLock { outcome.error = error; outcome.calls += 1; outcome.callerHeld = !callerWasFree }
            done.signal()
        }
        returned.signal()
        let finished = done.wait(timeout: .now() + 5) == .success
        try expect(finished, "fetch(completion:) did not finish within five seconds while the main queue was busy: "
            + "it waits for the main queue. Either the fetch runs there — on the view context, whose queue is the "
            + "main queue, where it would freeze the screen it feeds — or the completion is sent there. Fetch the IDs "
            + "inside perform of a new background context and call the completion right there, as its documentation "
            + "says; the caller moves to the main queue itself.")
        let (error, held) = outcome.lock.withLock { (outcome.error, outcome.callerHeld) }
        if let notDone = error as? KataNotDone { throw notDone }
        try expect(!held, "fetch(completion:) held its caller until the fetch was done: its completion ran before "
            + "fetch(completion:) had returned. The fetch ran on the background context's queue, but the thread that "
            + "called it — the main thread, for a screen — waited there the whole time, a frozen list while the store "
            + "is read. performAndWait does that; hand the work to the context so that the call returns at once, "
            + "and let the completion report when it is done.")
        return error
    }

    /// ``completionError(of:)`` for a fetch that must succeed.
    private func fetchBlockingMain(_ source: ReadingDataSource) throws {
        if let error = try completionError(of: source) {
            try expect(false, "fetch(completion:) reported an error: \(error)")
        }
    }

    func test05_dataSourceFetchesIDsInTheBackground() {
        kata(5, in: "ReadingDataSource.swift", "fetch(completion:)") {
            let samples = twoDays()
            let ids = try save(samples)
            let harbour = samples.indices.filter { samples[$0].station == "Harbour" }
                .sorted { samples[$0].hour < samples[$1].hour }.map { ids[$0] }
            let source = ReadingDataSource(container: container, station: "Harbour")
            // The SQL debug log (Core Data's -com.apple.CoreData.SQLDebug 1) shows what the fetch read.
            let ((), log) = try SQLLog.capture { try fetchBlockingMain(source) }
            let fetched = source.readingIDs
            try expect(Set(fetched).isSubset(of: Set(ids)), "readingIDs holds IDs that are not the store's readings.")
            try expect(Set(fetched).isSubset(of: Set(harbour)), "readingIDs holds readings of other stations: ask for "
                + "the station.")
            try expect(fetched.count == harbour.count, "readingIDs holds \(fetched.count) IDs; the harbour has "
                + "\(harbour.count) readings.")
            try expect(fetched == harbour, "readingIDs holds the right readings in the wrong order: a list is shown "
                + "oldest first, so the fetch needs a sort by takenAt (the store promises no order without one).")
            try expect(source.numberOfReadings == harbour.count, "numberOfReadings is \(source.numberOfReadings), "
                + "not \(harbour.count).")
            let made = readingsInContext
            try expect(made == 0, "after the fetch the view context already holds \(made) readings: an IDs-only data "
                + "source makes no object on the main context until a row is shown.")
            let readings = log.fetches(from: "ZREADING")
            try expect(!readings.isEmpty, "the SQL debug log shows no fetch of the readings' table (ZREADING) while "
                + "fetch(completion:) ran:\n\(log.quoted())\nFetch the IDs with a fetch request before calling the "
                + "completion.")
            if let whole = readings.first(where: { !$0.valueColumns.isEmpty }) {
                try expect(false, "to fetch \(fetched.count) IDs, fetch(completion:) ran\n    \(whole.sql)\nwhich reads "
                    + "the readings' values (\(whole.valueColumns.joined(separator: ", "))): it fetched the readings "
                    + "themselves — \(whole.rows) objects made, faults or filled, only for their objectIDs to be kept. A "
                    + "fetch request can return the IDs alone: set its resultType, and here its SELECT reads the keys "
                    + "and nothing else.")
            }
            // A store that has gone (closed, as when it could not be opened again): the fetch fails, and the caller
            // must hear of it rather than be told that the list is empty.
            let closed = try Self.makeInMemoryContainer(model: try Self.makeModel())
            for store in closed.persistentStoreCoordinator.persistentStores {
                try closed.persistentStoreCoordinator.remove(store)
            }
            let failing = ReadingDataSource(container: closed, station: "Harbour")
            let reported = try completionError(of: failing)
            try expect(reported != nil, "with its store closed, the fetch cannot read a thing, yet fetch(completion:) "
                + "called its completion with nil — success — and readingIDs holds \(failing.readingIDs.count) IDs: the "
                + "screen would show an empty list as if the station had no readings. A `try?` (or a catch that "
                + "carries on) swallows the error; pass the one the fetch throws to the completion.")
            // A station named as people name them, with an apostrophe.
            try save([Sample(station: "Fisherman's Rest", hour: 5, celsius: 1)])
            let rest = ReadingDataSource(container: container, station: "Fisherman's Rest")
            let restError = try completionError(of: rest)
            let restOutcome = restError.map { "reported an error (\($0))" } ?? "found \(rest.readingIDs.count) IDs"
            try expect(restError == nil && rest.readingIDs.count == 1, "for the station \"Fisherman's Rest\", "
                + "fetch(completion:) \(restOutcome) instead of its one reading: a station whose name has an apostrophe must be found like any "
                + "other. A name written into the format string itself ends its quoted string at the apostrophe (on a "
                + "device, a malformed format stops the app); a value passed as an argument of the format is never "
                + "read as part of it.")
            // A second sensor typed in lower case, and a provisional one marked with an asterisk: stations of their own.
            try save([Sample(station: "harbour", hour: 6, celsius: 2), Sample(station: "Harbour*", hour: 7, celsius: 3)])
            let again = ReadingDataSource(container: container, station: "Harbour")
            try fetchBlockingMain(again)
            try expect(again.readingIDs.count == harbour.count, "once stations named \"harbour\" and \"Harbour*\" had "
                + "readings too, the data source for \"Harbour\" holds \(again.readingIDs.count) IDs instead of "
                + "\(harbour.count): the name was matched loosely (ignoring case?). Those are other sensors; a station "
                + "is the one whose name is exactly the name asked for.")
            let starred = ReadingDataSource(container: container, station: "Harbour*")
            try fetchBlockingMain(starred)
            try expect(starred.readingIDs.count == 1, "the data source for the station \"Harbour*\" holds "
                + "\(starred.readingIDs.count) IDs instead of its one reading: the name was read as a pattern, where * "
                + "stands for any characters. A name a user typed is matched as it is written.")
        }
    }

    func test06_readingsAreMadeOnTheMainContextWhenShown() {
        kata(6, in: "ReadingDataSource.swift", "reading(at:)") {
            let samples = (0..<12).map { Sample(station: "Harbour", hour: 11 - $0, celsius: Double($0)) }
            try save(samples)                                // hour 0 is the last sample, at 11 °C
            let source = ReadingDataSource(container: container, station: "Harbour")
            try fetchBlockingMain(source)
            try expect(source.readingIDs.count == 12, "after fetch(completion:) readingIDs holds "
                + "\(source.readingIDs.count) IDs instead of 12: finish kata 5 first.")
            try deleteInTheStore([source.readingIDs[2]])      // deleted after the IDs were fetched
            // The kata keeps only a weak reference to the reading it is handed: what keeps it alive must be the
            // data source, not the kata (nor the view context, which holds an unchanged object only weakly).
            weak var handedOut: Reading?
            do {
                let first = try require(try source.reading(at: 0), "reading(at: 0) returned nil; the reading exists.")
                handedOut = first
                guard first.managedObjectContext === context else {
                    try expect(false, "reading(at:) returned a reading that belongs to "
                        + (first.managedObjectContext == nil
                           ? "no context any more (the context that made it is gone, and its objects are emptied with it)"
                           : "another context than the view context (the background context that fetched?)")
                        + ": the screen uses it on the main queue, so it must be the view context's. Keep only IDs from "
                        + "the fetch and make each reading on the view context.")
                    return
                }
                try expect(readingsInContext == 1, "asked for one row, reading(at:) made \(readingsInContext) readings "
                    + "in the view context: make only the one asked for, when it is asked for.")
                try expect(hourOf(first.takenAt) == 0 && first.celsius == 11, "reading(at: 0) is the reading of hour "
                    + "\(hourOf(first.takenAt)), \(first.celsius) °C; the oldest is hour 0, 11 °C.")
            }
            // As under memory pressure: the view context turns its unchanged objects back into faults.
            context.refreshAllObjects()
            context.processPendingChanges()
            let (again, log) = try SQLLog.capture { try source.reading(at: 0) }
            try expect(handedOut != nil, "nothing kept the reading reading(at: 0) handed out: once the screen let "
                + "go of it, it was gone, and asking again made and read a new one. Keep each reading you make in "
                + "the data source, and hand out the kept one (on Core Data a context holds an unchanged object only "
                + "weakly).")
            try expect(again === handedOut, "reading(at: 0) made a second object for the same reading: keep the "
                + "readings already made and hand out the same one.")
            try expect(log.statements.isEmpty, "asked for row 0 a second time, reading(at:) looked its reading up in "
                + "the view context again, which read the store once more — the SQL debug log shows:\n"
                + "\(log.quoted())\nKeep each reading you make and hand out the kept one. On Core Data a context holds "
                + "an unchanged object only weakly: the data source's own reference is what keeps it, and without one "
                + "the object may be gone and be made and read again.")
            let goneRow: Reading?
            do {
                goneRow = try source.reading(at: 2)
            } catch let error as CocoaError where error.code == .managedObjectReferentialIntegrity {
                try expect(false, "reading(at: 2) threw error 133000 for a reading deleted after the IDs were "
                    + "fetched: that is the lookup saying the row is gone. A list shows such a row as missing — "
                    + "return nil for it (kata 4's reading(with:) does).")
                return
            }
            if let gone = goneRow {
                try expect(false, "reading(at: 2) returned an object (\(gone.isDeleted ? "reading as deleted" : "a fault")) "
                    + "for a reading deleted from the store after the IDs were fetched: look each ID up in a way "
                    + "that checks the store, and return nil when its row is gone.")
            }
            let second = try require(try source.reading(at: 1), "reading(at: 1) returned nil; the reading exists.")
            try expect(hourOf(second.takenAt) == 1, "reading(at: 1) is the reading of hour \(hourOf(second.takenAt)), "
                + "not hour 1.")
            try expect(readingsInContext == 2, "after two rows were shown the view context holds "
                + "\(readingsInContext) readings instead of 2.")
            // A table asks for a row that is no longer there (the list shrank under it): no such row, no reading.
            for beyond in [source.numberOfReadings, -1] {
                if let stray = try source.reading(at: beyond) {
                    try expect(false, "reading(at: \(beyond)) — a row the list does not have — returned the reading "
                        + "of hour \(hourOf(stray.takenAt)): a screen would show a row twice, or a row that is not "
                        + "there. An index out of range has no reading; its documentation says nil.")
                }
            }
            // An older reading arrives late (a station that was offline uploads its log) and the list is fetched
            // again: every row moves down by one.
            try save([Sample(station: "Harbour", hour: -1, celsius: 20)])
            try fetchBlockingMain(source)
            let late = try require(try source.reading(at: 0), "after a new fetch, reading(at: 0) returned nil; the "
                + "reading exists.")
            try expect(hourOf(late.takenAt) == -1, "after a new fetch put an older reading first, reading(at: 0) "
                + "is still the reading of hour \(hourOf(late.takenAt)), \(late.celsius) °C, not the new one of hour "
                + "−1: the kept readings were kept by row, and the rows have moved. A row number means something only "
                + "for the fetch that made it; the reading's ID stays the same across fetches.")
            try expect(try source.reading(at: 1) === handedOut, "after a new fetch, row 1 holds the reading row 0 "
                + "held before (hour 0), but reading(at: 1) did not hand out the one already made: keep the readings "
                + "by what identifies them, so that a fetch that moves the rows does not make them again.")
        }
    }
}
