import Foundation
import Persistence

// Persistence against the raw SQLite C API on the same rows, in one run:
//   insert 50,000 objects of 10 integers in one save; fetch 200,000 such objects and read every attribute.
// Each measured case runs in a child process of its own, so the peak memory reported is that case's alone.
//
//   swift run -c release --package-path Benchmarks persistence-bench [--runs N]

let arguments = CommandLine.arguments
let insertCount = 50_000
let fetchCount = 200_000

func peakMemoryMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kb / 1024
}

/// Minor page faults so far: each is a fresh page of memory the kernel had to hand over and zero.
func minorFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
}

func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}

// MARK: - Child: one case, several times in one process, printed as
// "cold warm warm+release peakMB check coldFaults warmFaults"
//
// The first repetition is cold (fresh process memory: every allocation faults in new pages); the later ones are
// warm (memory freed by the previous repetition is reused), as in an app that has been running for a while.

let repetitions = 5

if arguments.count >= 3 && arguments[1] == "--case" {
    let name = arguments[2]
    let path = arguments.count > 3 ? arguments[3] : ""
    do {
        var times: [Double] = []
        // The same figure plus the time to free the context and every object it holds.
        var releases: [Double] = []
        // Minor page faults during the work.
        var faults: [Int] = []
        var check = 0
        /// Times `work`, counting its page faults, then `release`.
        func measure(_ work: () throws -> Void, release: () -> Void) rethrows {
            let faultsBefore = minorFaults()
            let seconds = try timed(work)
            faults.append(minorFaults() - faultsBefore)
            times.append(seconds)
            releases.append(seconds + timed(release))
        }
        for repetition in 0..<(name.hasPrefix("prepare") ? 1 : repetitions) {
            // Inserts go to a fresh store each time; fetches read the prepared one.
            let store = name.hasPrefix("insert") ? "\(path)-\(repetition)" : path
            if name.hasPrefix("insert") { removeStore(store) }
            defer { if name.hasPrefix("insert") { removeStore(store) } }
            switch name {
            case "insert-raw":
                let db = RawSQLite.open(store)
                RawSQLite.createTable(db)
                measure({ RawSQLite.insert(db, count: insertCount) }, release: { RawSQLite.close(db) })
            case "insert-persistence":
                let container = try Workload.container(path: store)
                var context: ManagedObjectContext? = container.newBackgroundContext()
                try measure({ try Workload.insert(into: context!, count: insertCount) }, release: { context = nil })
            case "prepare-raw":
                let db = RawSQLite.open(store)
                RawSQLite.createTable(db)
                RawSQLite.insert(db, count: fetchCount)
                RawSQLite.close(db)
            case "prepare-persistence":
                try Workload.insert(into: try Workload.container(path: store), count: fetchCount)
            case "fetch-raw":
                let db = RawSQLite.open(store)
                measure({ check = Int(RawSQLite.readAll(db)) }, release: { RawSQLite.close(db) })
            case "fetch-persistence":
                let container = try Workload.container(path: store)
                var context: ManagedObjectContext? = container.newBackgroundContext()
                try measure({ check = try Workload.readAll(in: context!) }, release: { context = nil })
            default:
                FileHandle.standardError.write(Data("unknown case \(name)\n".utf8))
                exit(2)
            }
        }
        let cold = times.first ?? 0
        let warm = times.dropFirst().sorted()
        let warmReleased = releases.dropFirst().sorted()
        let warmFaults = faults.dropFirst().sorted()
        print(cold, warm.isEmpty ? cold : warm[warm.count / 2],
              warmReleased.isEmpty ? 0 : warmReleased[warmReleased.count / 2], peakMemoryMB(), check,
              faults.first ?? 0, warmFaults.isEmpty ? 0 : warmFaults[warmFaults.count / 2])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(name) failed: \(error)\n".utf8))
        exit(1)
    }
}

// MARK: - Parent: run every case several times and compare

var runs = 5
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
    runs = value
} else if arguments.count > 1 {
    print("usage: persistence-bench [--runs N]   (N ≥ 1, default 5)")
    exit(arguments.contains("--help") ? 0 : 2)
}

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
let showProgress = isatty(STDERR_FILENO) != 0

struct Sample {
    let cold: Double, warm: Double, warmReleased: Double, peakMB: Double, check: Int
    let coldFaults: Int, warmFaults: Int
}

func runCase(_ name: String, path: String) -> Sample {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--case", name, path]
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch {
        print("cannot start \(executable): \(error)")
        exit(1)
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard process.terminationStatus == 0, fields.count == 7 else {
        print("case \(name) failed (exit \(process.terminationStatus))")
        exit(1)
    }
    return Sample(cold: fields[0], warm: fields[1], warmReleased: fields[2], peakMB: fields[3], check: Int(fields[4]),
                  coldFaults: Int(fields[5]), warmFaults: Int(fields[6]))
}

let steps = runs * 4 + 2
nonisolated(unsafe) var done = 0  // the driver is single-threaded
func progress(_ label: String) {
    done += 1
    guard showProgress else { return }
    let width = 30
    let filled = width * done / steps
    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(steps) \(label)".padding(toLength: 70, withPad: " ", startingAt: 0).utf8))
}

/// The median over runs of the cold and of the warm figures, and the highest peak memory.
func median(_ samples: [Sample]) -> Sample {
    let cold = samples.map(\.cold).sorted()
    let warm = samples.map(\.warm).sorted()
    let released = samples.map(\.warmReleased).sorted()
    let coldFaults = samples.map(\.coldFaults).sorted()
    let warmFaults = samples.map(\.warmFaults).sorted()
    return Sample(cold: cold[cold.count / 2], warm: warm[warm.count / 2], warmReleased: released[released.count / 2],
                  peakMB: samples.map(\.peakMB).max() ?? 0, check: samples[0].check,
                  coldFaults: coldFaults[coldFaults.count / 2], warmFaults: warmFaults[warmFaults.count / 2])
}

var results: [String: [Sample]] = [:]
for run in 0..<runs {
    // Alternate the order so neither side always runs on a warmer machine.
    let order = run % 2 == 0 ? ["raw", "persistence"] : ["persistence", "raw"]
    for side in order {
        let path = "\(folder)/bench-insert-\(side)-\(getpid()).sqlite"
        removeStore(path)
        results["insert-\(side)", default: []].append(runCase("insert-\(side)", path: path))
        removeStore(path)
        progress("insert \(side) #\(run + 1)")
    }
}
let rawStore = "\(folder)/bench-fetch-raw-\(getpid()).sqlite"
let persistenceStore = "\(folder)/bench-fetch-persistence-\(getpid()).sqlite"
removeStore(rawStore)
removeStore(persistenceStore)
_ = runCase("prepare-raw", path: rawStore)
progress("prepare raw store")
_ = runCase("prepare-persistence", path: persistenceStore)
progress("prepare Persistence store")
for run in 0..<runs {
    let order = run % 2 == 0 ? ["raw", "persistence"] : ["persistence", "raw"]
    for side in order {
        results["fetch-\(side)", default: []].append(runCase("fetch-\(side)", path: side == "raw" ? rawStore : persistenceStore))
        progress("fetch \(side) #\(run + 1)")
    }
}
removeStore(rawStore)
removeStore(persistenceStore)
if showProgress { FileHandle.standardError.write(Data("\r".padding(toLength: 71, withPad: " ", startingAt: 0).utf8 + Data("\r".utf8))) }

let rawFetch = median(results["fetch-raw"]!)
let persistenceFetch = median(results["fetch-persistence"]!)
guard rawFetch.check == persistenceFetch.check else {
    print("the two sides read different data (sums \(rawFetch.check) and \(persistenceFetch.check))")
    exit(1)
}

func row(_ label: String, _ raw: Double, _ persistence: Double, target: Double) -> (String, Bool) {
    let ratio = persistence / raw
    let verdict = ratio <= target
    let text = label.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%9.3f s %9.3f s %7.2f× %8@", raw, persistence, ratio, "≤ \(target)×" as NSString)
        + (verdict ? "  ok" : "  OVER")
    return (text, verdict)
}

let insertRaw = median(results["insert-raw"]!)
let insertPersistence = median(results["insert-persistence"]!)
print("Persistence vs raw SQLite C API — release build; \(runs) runs × \(repetitions) repetitions, one process per run")
print("cold: the first repetition in a fresh process; warm: the median of the others (memory reused);")
print("+ release: warm, plus freeing the context and every object it holds (the raw side closes its connection)")
print("case".padding(toLength: 44, withPad: " ", startingAt: 0) + "      raw  Persistence   ratio   target")
let rows = [
    row("insert 50,000 × 10 integers, one save — cold", insertRaw.cold, insertPersistence.cold, target: 2.0),
    row("insert 50,000 × 10 integers, one save — warm", insertRaw.warm, insertPersistence.warm, target: 2.0),
    row("insert 50,000 × 10 integers — warm + release", insertRaw.warmReleased, insertPersistence.warmReleased, target: 2.0),
    row("fetch 200,000 × 10 integers, read all — cold", rawFetch.cold, persistenceFetch.cold, target: 3.0),
    row("fetch 200,000 × 10 integers, read all — warm", rawFetch.warm, persistenceFetch.warm, target: 3.0),
    row("fetch 200,000 × 10 integers — warm + release", rawFetch.warmReleased, persistenceFetch.warmReleased, target: 3.0),
]
for (text, _) in rows { print(text) }
print(String(format: "peak memory (whole process): insert raw %.1f MB, Persistence %.1f MB; fetch raw %.1f MB, Persistence %.1f MB",
             insertRaw.peakMB, insertPersistence.peakMB, rawFetch.peakMB, persistenceFetch.peakMB))
// Fresh memory costs a page fault per 4 KB the first time it is touched; this is most of what "cold" adds.
print("minor page faults in the timed work, cold / warm: insert raw \(insertRaw.coldFaults) / \(insertRaw.warmFaults), "
      + "Persistence \(insertPersistence.coldFaults) / \(insertPersistence.warmFaults); "
      + "fetch raw \(rawFetch.coldFaults) / \(rawFetch.warmFaults), Persistence \(persistenceFetch.coldFaults) / \(persistenceFetch.warmFaults)")
exit(rows.allSatisfy(\.1) ? 0 : 3)
