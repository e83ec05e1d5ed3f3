import Foundation

// Persistence beside the raw SQLite C API (the floor) and GRDB 7 (the best Swift peer), on the same rows, in one run:
//   insert 50,000 objects of 10 integers in one save; fetch 200,000 such objects and read every attribute;
//   search 1.6 million texts for three terms; delete 10,000 decks with their 100,000 cards.
// Each measured case runs in a child process of its own, so the peak memory reported is that case's alone.
//
//   swift run -c release --package-path Benchmarks persistence-bench [--runs N] [--only insert|fetch|search|delete]
//   persistence-bench --drop [--runs N]: fetch the 200,000 objects and drop them, five times in one context, and
//   print the memory still resident afterwards (what the context keeps of objects nobody holds).
//   --keep-freed-memory: the cases run with glibc told not to give freed memory back to the system
//   (MALLOC_TRIM_THRESHOLD_), so a warm repetition reuses what the previous one freed whatever order things were
//   freed in; by default glibc trims as it likes, and a repetition may fault in fresh pages instead.

let arguments = CommandLine.arguments
let usage = "usage: persistence-bench [--runs N] [--only WORKLOAD] [--keep-freed-memory]   (N ≥ 1, default 3; WORKLOAD: insert, fetch, search or delete)"

if arguments.count >= 3 && arguments[1] == "--case" {
    do {
        try Cases.run(arguments[2], path: arguments.count > 3 ? arguments[3] : "")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(arguments[2]) failed: \(error)\n".utf8))
        exit(1)
    }
}

var runs = 3
var only: String?
var fetchThenDrop = false
nonisolated(unsafe) var keepFreedMemory = false  // set once, before any case runs
var remaining = arguments.dropFirst()
while let option = remaining.popFirst() {
    switch option {
    case "--runs":
        guard let text = remaining.popFirst(), let value = Int(text), value > 0 else {
            print(usage)
            exit(2)
        }
        runs = value
    case "--only":
        guard let name = remaining.popFirst(), ["insert", "fetch", "search", "delete"].contains(name) else {
            print(usage)
            exit(2)
        }
        only = name
    case "--drop":
        fetchThenDrop = true
    case "--keep-freed-memory":
        keepFreedMemory = true
    default:
        print(usage)
        exit(option == "--help" ? 0 : 2)
    }
}

/// One workload: its sides (the first is the one the others are compared with), and the store each side reads.
struct BenchWorkload {
    struct Side {
        let label: String
        let caseName: String
        /// The prepared store it reads or copies ("raw", "grdb", "persistence"), nil when it writes its own.
        let store: String?
    }

    let name: String
    let title: String
    let sides: [Side]
}

let allWorkloads = [
    BenchWorkload(name: "insert", title: "insert 50,000 × 10 integers, one save", sides: [
        .init(label: "raw C API", caseName: "insert-raw", store: nil),
        .init(label: "GRDB statements", caseName: "insert-grdb-statements", store: nil),
        .init(label: "GRDB records", caseName: "insert-grdb-records", store: nil),
        .init(label: "Persistence", caseName: "insert-persistence", store: nil),
    ]),
    BenchWorkload(name: "fetch", title: "fetch 200,000 × 10 integers, read all", sides: [
        .init(label: "raw C API", caseName: "fetch-raw", store: "raw"),
        .init(label: "GRDB statements", caseName: "fetch-grdb-statements", store: "grdb"),
        .init(label: "GRDB records", caseName: "fetch-grdb-records", store: "grdb"),
        .init(label: "Persistence", caseName: "fetch-persistence", store: "persistence"),
    ]),
    BenchWorkload(name: "search", title: "search 1.6M texts, three terms (raw, GRDB: LIKE; Persistence: CONTAINS[cd])", sides: [
        .init(label: "raw C API, LIKE", caseName: "search-raw", store: "raw"),
        .init(label: "GRDB, LIKE", caseName: "search-grdb", store: "grdb"),
        .init(label: "Persistence, CONTAINS[cd]", caseName: "search-persistence", store: "persistence"),
    ]),
    BenchWorkload(name: "delete", title: "delete 10,000 decks and their 100,000 cards", sides: [
        .init(label: "raw C API, bulk DELETE", caseName: "delete-raw", store: "raw"),
        .init(label: "GRDB, deleteAll + cascade", caseName: "delete-grdb", store: "grdb"),
        .init(label: "Persistence, child context", caseName: "delete-persistence-child", store: "persistence"),
        .init(label: "Persistence, context", caseName: "delete-persistence-context", store: "persistence"),
        .init(label: "Persistence, batch delete", caseName: "delete-persistence-batch", store: "persistence"),
    ]),
]

let workloads = allWorkloads.filter { only == nil || $0.name == only }

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
let showProgress = isatty(STDERR_FILENO) != 0

struct Sample {
    let cold: Double, warm: Double, warmReleased: Double, peakMB: Double, check: Int
}

func runCase(_ name: String, path: String) -> Sample {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--case", name, path]
    if keepFreedMemory {
        process.environment = ProcessInfo.processInfo.environment.merging(["MALLOC_TRIM_THRESHOLD_": "4000000000"]) { $1 }
    }
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
    return Sample(cold: fields[0], warm: fields[1], warmReleased: fields[2], peakMB: fields[3], check: Int(fields[4]))
}

let steps = workloads.reduce(0) { $0 + Set($1.sides.compactMap(\.store)).count + $1.sides.count * runs }
nonisolated(unsafe) var done = 0  // the driver is single-threaded
func progress(_ label: String) {
    done += 1
    guard showProgress else { return }
    let width = 30
    let filled = width * done / steps
    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(steps) \(label)".padding(toLength: 78, withPad: " ", startingAt: 0).utf8))
}

/// The median over runs of the cold and of the warm figures, and the highest peak memory.
func median(_ samples: [Sample]) -> Sample {
    func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return Sample(cold: middle(samples.map(\.cold)), warm: middle(samples.map(\.warm)),
                  warmReleased: middle(samples.map(\.warmReleased)), peakMB: samples.map(\.peakMB).max() ?? 0,
                  check: samples[0].check)
}

if fetchThenDrop {
    let path = "\(folder)/bench-drop-\(getpid()).sqlite"
    removeStore(path)
    _ = runCase("prepare-fetch-persistence", path: path)
    let samples = (0..<runs).map { _ in runCase("fetchdrop-persistence", path: path) }
    removeStore(path)
    let sample = median(samples)
    print("fetch 200,000 × 10 integers and drop the results, \(Cases.repetitions) times in one context (\(runs) runs, medians)")
    print(String(format: "  first %.3f s, then %.3f s; memory still resident afterwards %.1f MB; peak %.0f MB; check %d",
                 sample.cold, sample.warm, sample.warmReleased, sample.peakMB, sample.check))
    exit(0)
}

var results: [String: Sample] = [:]
for workload in workloads {
    var stores: [String: String] = [:]
    for kind in Set(workload.sides.compactMap(\.store)).sorted() {
        let path = "\(folder)/bench-\(workload.name)-\(kind)-\(getpid()).sqlite"
        removeStore(path)
        _ = runCase("prepare-\(workload.name)-\(kind)", path: path)
        stores[kind] = path
        progress("prepare \(workload.name) \(kind)")
    }
    var samples: [String: [Sample]] = [:]
    for run in 0..<runs {
        // Alternate the order so no side always runs on a warmer machine.
        let order = run % 2 == 0 ? workload.sides : workload.sides.reversed()
        for side in order {
            let path = side.store.flatMap { stores[$0] } ?? "\(folder)/bench-\(side.caseName)-\(getpid()).sqlite"
            samples[side.caseName, default: []].append(runCase(side.caseName, path: path))
            progress("\(side.caseName) #\(run + 1)")
        }
    }
    for path in stores.values { removeStore(path) }
    for (name, list) in samples { results[name] = median(list) }
}
if showProgress { FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: 78) + "\r").utf8)) }

print("Persistence beside the raw SQLite C API and GRDB 7 — release build, \(ProcessInfo.processInfo.activeProcessorCount) cores;")
print("\(runs) runs × \(Cases.repetitions) repetitions, one process per run. cold: the first repetition in a fresh process;")
print("warm: the median of the others; ratio: warm against the first side of the workload; peak: the case's process.")
print(keepFreedMemory ? "Freed memory is kept by malloc (MALLOC_TRIM_THRESHOLD_), so warm repetitions reuse it."
                      : "glibc's default trimming: a warm repetition may fault in pages the previous one gave back.")
var over: [String] = []
for workload in workloads {
    print("")
    print(workload.title)
    print("  " + "side".padding(toLength: 42, withPad: " ", startingAt: 0) + "      cold       warm   ratio    peak   check")
    let base = results[workload.sides[0].caseName]!
    for side in workload.sides {
        let sample = results[side.caseName]!
        print("  " + side.label.padding(toLength: 42, withPad: " ", startingAt: 0)
              + String(format: "%8.3f s %8.3f s %6.2f× %5.0f MB  %d", sample.cold, sample.warm, sample.warm / base.warm,
                       sample.peakMB, sample.check))
    }
}

// The targets of the issue that asked for this table; a line for each, with its verdict.
let finalResults = results
func result(_ name: String) -> Sample { finalResults[name]! }
/// Each target with the workload it belongs to; only the measured workloads' targets are judged.
let allTargets: [(workload: String, label: String, value: () -> Double, target: Double)] = [
    ("insert", "insert, cold: Persistence / raw", { result("insert-persistence").cold / result("insert-raw").cold }, 1.8),
    ("insert", "insert, warm: Persistence / raw", { result("insert-persistence").warm / result("insert-raw").warm }, 1.8),
    ("fetch", "fetch, warm: Persistence / raw", { result("fetch-persistence").warm / result("fetch-raw").warm }, 1.4),
    ("fetch", "fetch, cold: Persistence / raw", { result("fetch-persistence").cold / result("fetch-raw").cold }, 2.0),
    ("fetch", "fetch, peak memory of Persistence (MB)", { result("fetch-persistence").peakMB }, 70),
    ("search", "search, warm: CONTAINS[cd] / raw LIKE", { result("search-persistence").warm / result("search-raw").warm }, 1.3),
    ("delete", "delete through a child context (s)", { result("delete-persistence-child").warm }, 0.6),
    ("delete", "delete through a context (s)", { result("delete-persistence-context").warm }, 0.4),
    ("delete", "batch delete / raw bulk delete", { result("delete-persistence-batch").warm / result("delete-raw").warm }, 1.2),
]
let targets = allTargets.filter { target in workloads.contains { $0.name == target.workload } }
    .map { ($0.label, $0.value(), $0.target) }
print("")
print("targets".padding(toLength: 44, withPad: " ", startingAt: 0) + "    measured    target")
for (label, value, target) in targets {
    let ok = value <= target
    if !ok { over.append(label) }
    print("  " + label.padding(toLength: 42, withPad: " ", startingAt: 0)
          + String(format: "%10.2f  ≤ %6.2f", value, target) + (ok ? "  ok" : "  OVER"))
}
exit(over.isEmpty ? 0 : 3)
