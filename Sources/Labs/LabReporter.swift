import Foundation

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

    /// Times `body` and records it under `name` with the peak memory while it ran; `note` describes its outcome
    /// (what was found, what is left).
    @discardableResult
    func measure<T>(_ name: String, note: (T) -> String, _ body: () throws -> T) rethrows -> T {
        progress(name, done: 0, total: 0)
        let stepped = memory.beginStep()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        measurements.append(LabMeasurement(name: name, seconds: seconds,
                                           peakMemoryMB: stepped ? memory.endStep() : nil, note: note(result)))
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
