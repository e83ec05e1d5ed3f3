import Foundation

// The labs `lessons lab NAME` builds in release mode and runs:
//   persistence-labs NAME [--rows N]
// Progress goes to standard error, the measurements to standard output as JSON (see LabReporter).

let usage = "usage: persistence-labs search|delete|import|faults [--rows N]"
var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)
}
arguments.removeFirst()
var rows: Int?
while let option = arguments.first {
    arguments.removeFirst()
    guard option == "--rows", let text = arguments.first, let value = Int(text), value > 0 else {
        FileHandle.standardError.write(Data(("persistence-labs: unexpected '\(option)'. " + usage + "\n").utf8))
        exit(64)
    }
    arguments.removeFirst()
    rows = value
}

/// Each lab with its full size (the `lessons lab` catalog passes its own `--rows`, this is for running it by hand).
let labs: [String: (rows: Int, run: (Int, LabReporter) throws -> Void)] = [
    "search": (1_600_000, SearchLab.run),
    "delete": (10_000, DeleteLab.run),
    "import": (200_000, ImportLab.run),
    "faults": (200_000, FaultsLab.run),
]
guard let lab = labs[name] else {
    FileHandle.standardError.write(Data(("persistence-labs: no lab named '\(name)'. " + usage + "\n").utf8))
    exit(64)
}
let reporter = LabReporter()
do {
    let count = rows ?? lab.rows
    try lab.run(count, reporter)
    try reporter.finish(lab: name, rows: count)
} catch {
    FileHandle.standardError.write(Data("error\t\(error)\n".utf8))
    exit(1)
}
