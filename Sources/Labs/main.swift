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

let reporter = LabReporter()
do {
    switch name {
    case "search":
        let count = rows ?? 1_600_000
        try SearchLab.run(rows: count, reporter: reporter)
        try reporter.finish(lab: name, rows: count)
    case "delete":
        let count = rows ?? 10_000
        try DeleteLab.run(decks: count, reporter: reporter)
        try reporter.finish(lab: name, rows: count)
    case "import":
        let count = rows ?? 200_000
        try ImportLab.run(rows: count, reporter: reporter)
        try reporter.finish(lab: name, rows: count)
    case "faults":
        let count = rows ?? 200_000
        try FaultsLab.run(rows: count, reporter: reporter)
        try reporter.finish(lab: name, rows: count)
    default:
        FileHandle.standardError.write(Data(("persistence-labs: no lab named '\(name)'. " + usage + "\n").utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("error\t\(error)\n".utf8))
    exit(1)
}
