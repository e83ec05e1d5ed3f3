import Foundation

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

func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}

// MARK: - Child: one case, printed as "seconds peakMB check"

if arguments.count >= 3 && arguments[1] == "--case" {
    let name = arguments[2]
    let path = arguments.count > 3 ? arguments[3] : ""
    do {
        var seconds = 0.0
        var check = 0
        switch name {
        case "insert-raw":
            let db = RawSQLite.open(path)
            RawSQLite.createTable(db)
            seconds = timed { RawSQLite.insert(db, count: insertCount) }
        case "insert-persistence":
            let container = try Workload.container(path: path)
            seconds = try timed { try Workload.insert(into: container, count: insertCount) }
        case "prepare-raw":
            let db = RawSQLite.open(path)
            RawSQLite.createTable(db)
            RawSQLite.insert(db, count: fetchCount)
        case "prepare-persistence":
            try Workload.insert(into: try Workload.container(path: path), count: fetchCount)
        case "fetch-raw":
            let db = RawSQLite.open(path)
            seconds = timed { check = Int(RawSQLite.readAll(db)) }
        case "fetch-persistence":
            let container = try Workload.container(path: path)
            seconds = try timed { check = try Workload.readAll(from: container) }
        default:
            FileHandle.standardError.write(Data("unknown case \(name)\n".utf8))
            exit(2)
        }
        print(seconds, peakMemoryMB(), check)
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

struct Sample { let seconds: Double; let peakMB: Double; let check: Int }

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
    guard process.terminationStatus == 0, fields.count == 3 else {
        print("case \(name) failed (exit \(process.terminationStatus))")
        exit(1)
    }
    return Sample(seconds: fields[0], peakMB: fields[1], check: Int(fields[2]))
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

func median(_ samples: [Sample]) -> Sample {
    let sorted = samples.sorted { $0.seconds < $1.seconds }
    return sorted[sorted.count / 2]
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

func row(_ label: String, _ raw: Sample, _ persistence: Sample, target: Double) -> (String, Bool) {
    let ratio = persistence.seconds / raw.seconds
    let verdict = ratio <= target
    let text = label.padding(toLength: 38, withPad: " ", startingAt: 0)
        + String(format: "%9.3f s %9.3f s %7.2f× %8@ %8.1f MB %8.1f MB", raw.seconds, persistence.seconds, ratio,
                 "≤ \(target)×" as NSString, raw.peakMB, persistence.peakMB)
        + (verdict ? "  ok" : "  OVER")
    return (text, verdict)
}

print("Persistence vs raw SQLite C API — release build, median of \(runs) runs, one process per case")
print("case".padding(toLength: 38, withPad: " ", startingAt: 0) + "      raw  Persistence   ratio   target   raw peak  Pers. peak")
let insert = row("insert 50,000 × 10 integers, one save", median(results["insert-raw"]!), median(results["insert-persistence"]!), target: 2.0)
let fetch = row("fetch 200,000 × 10 integers, read all", rawFetch, persistenceFetch, target: 3.0)
print(insert.0)
print(fetch.0)
exit(insert.1 && fetch.1 ? 0 : 3)
