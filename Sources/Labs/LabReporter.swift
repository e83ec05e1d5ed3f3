import Foundation
@_spi(TestHarness) import Persistence
import Synchronization

/// What a lab tells the `lessons lab` command while it runs, and what it measured.
///
/// Progress goes to standard error as tab-separated lines (`progress<TAB>label<TAB>done<TAB>total`), which
/// `lessons lab` turns into its progress bar; the result goes to standard output as one JSON object.
final class LabReporter {
    private var measurements: [LabMeasurement] = []
    private var lastProgress = Date.distantPast
    private var memory = MemoryGauge()

    /// Reports progress at most ten times a second (and always at the end), so reporting costs nothing measurable.
    func progress(_ label: String, done: Int, total: Int) {
        let now = Date()
        guard done == total || now.timeIntervalSince(lastProgress) >= 0.1 else { return }
        lastProgress = now
        FileHandle.standardError.write(Data("progress\t\(label)\t\(done)\t\(total)\n".utf8))
    }

    /// Times `body` and records it under `name` with the peak memory while it ran and the SQL statements it ran;
    /// `note` describes its outcome (what was found, what is left).
    ///
    /// The statements are counted from Core Data's SQL debug log (level 1), which is on while `body` runs, as a
    /// developer reads it in Xcode's console: each `CoreData: sql:` line is a statement the store ran. The lines
    /// are counted as they are written, never kept, so they cost the time of writing each line and no memory.
    /// `countsSQL` is false where the work runs in another process (the log sees none of it).
    @discardableResult
    func measure<T>(_ name: String, countsSQL: Bool = true, note: (T) -> String, _ body: () throws -> T) rethrows -> T {
        progress(name, done: 0, total: 0)
        let statements = Mutex(0)
        let stepped = memory.beginStep()
        let clock = ContinuousClock()
        let start = clock.now
        let result = countsSQL
            ? try PersistenceDebugLog.observe({ line in
                if line.hasPrefix("CoreData: sql: ") { statements.withLock { $0 += 1 } }
            }, body)
            : try body()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        measurements.append(LabMeasurement(name: name, seconds: seconds,
                                           peakMemoryMB: stepped ? memory.endStep() : nil,
                                           sqlStatements: countsSQL ? statements.withLock { $0 } : nil,
                                           note: note(result)))
        return result
    }

    /// The result as JSON on standard output.
    func finish(lab: String, rows: Int) throws {
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        let result = LabResult(lab: lab, rows: rows, build: build,
                               cores: ProcessInfo.processInfo.activeProcessorCount, peakMemoryMB: memory.runPeakMB,
                               measurements: measurements)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        FileHandle.standardOutput.write(try encoder.encode(result) + Data("\n".utf8))
    }
}

/// One way of doing the lab's work: how long it took, and the process's peak memory meanwhile (nil where the
/// system cannot tell one step's peak).
struct LabMeasurement: Codable {
    let name: String
    let seconds: Double
    let peakMemoryMB: Double?
    /// The SQL statements the store ran meanwhile, from the SQL debug log; nil where the work ran elsewhere.
    let sqlStatements: Int?
    let note: String
}

/// Everything a lab run measured, as `lessons lab --json` prints it.
struct LabResult: Codable {
    let lab: String
    let rows: Int
    /// "release", or "debug" when the program was built for debugging (its times then mean little).
    let build: String
    let cores: Int
    let peakMemoryMB: Double
    let measurements: [LabMeasurement]
}
