import Foundation

// The labs `lessons lab NAME` builds in release mode and runs:
//   persistence-labs NAME [--rows N]
// Progress goes to standard error, the measurements to standard output as JSON (see LabReporter).

/// Each lab with its full size (the `lessons lab` catalog passes its own `--rows`; this is for running it by hand).
let labs: [String: (rows: Int, run: @Sendable (Int, LabReporter) throws -> Void)] = [
    "search": (1_600_000, SearchLab.run),
    "delete": (10_000, DeleteLab.run),
    "import": (200_000, ImportLab.run),
    "faults": (200_000, FaultsLab.run),
    "history": (200_000, HistoryLab.run),
    "fetched-results": (100_000, FetchedResultsLab.run),
    "migration": (200_000, MigrationLab.run),
]

func usageError(_ message: String) -> Never {
    let usage = "usage: persistence-labs " + labs.keys.sorted().joined(separator: "|") + " [--rows N]"
    FileHandle.standardError.write(Data((message + usage + "\n").utf8))
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else { usageError("") }
arguments.removeFirst()
var rows: Int?
while let option = arguments.first {
    arguments.removeFirst()
    guard option == "--rows", let text = arguments.first, let value = Int(text), value > 0 else {
        usageError("persistence-labs: unexpected '\(option)'. ")
    }
    arguments.removeFirst()
    rows = value
}
guard let lab = labs[name] else { usageError("persistence-labs: no lab named '\(name)'. ") }

MemoryGauge.useOneHeap()
LabStore.removeFoldersOnInterrupt()
// The lab runs on a thread of its own and the main thread serves the main queue, as in an app: the container's
// view context lives there, and saves merge into it while the lab's other contexts work.
let count = rows ?? lab.rows
let worker = Thread {
    let reporter = LabReporter()
    do {
        try lab.run(count, reporter)
        try reporter.finish(lab: name, rows: count)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("error\t\(error)\n".utf8))
        exit(1)
    }
}
worker.stackSize = 8 << 20
worker.start()
dispatchMain()
