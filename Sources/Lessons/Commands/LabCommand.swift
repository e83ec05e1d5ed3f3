import ArgumentParser
import Foundation
import LessonsKit

struct LabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Measure a claim of the source documents on this machine (no name: list the labs).",
        discussion: """
            A lab builds the lab program in release mode (in .build/labs, the first time in a minute or two), \
            fills a store in a temporary folder while a progress bar runs, and prints a table: each way of doing \
            the work, its time here, the document's own figure, the peak memory meanwhile and the SQL statements \
            it ran, counted from Core Data's SQL debug log (lesson 6 shows how to read that log).
            """)

    @Argument(help: "The lab: search, delete, import, faults or migration.")
    var name: String?

    @Option(help: ArgumentHelp("Run smaller: this many rows instead of the lab's full size.", valueName: "n"))
    var rows: Int?

    @Option(help: ArgumentHelp("Run smaller or larger: the full size times this factor (0 < f ≤ 10).",
                               valueName: "f"))
    var scale: Double?

    @Flag(help: "Print the measurements as one JSON object, for machines.")
    var json = false

    /// Skips the release build: the command's own tests run a debug build of the lab program this way.
    @Option(name: .customLong("lab-program"), help: .hidden)
    var labProgram: String?

    @OptionGroup var options: CommonOptions

    func validate() throws {
        if let rows, rows <= 0 { throw ValidationError("--rows must be a positive number, not \(rows).") }
        if let scale, !(scale > 0 && scale <= 10) {
            throw ValidationError("--scale must be more than 0 and at most 10, not \(scale).")
        }
        if rows != nil && scale != nil { throw ValidationError("give --rows or --scale, not both.") }
        if let name {
            do {
                _ = try LabCatalog.lab(named: name)
            } catch {
                // A usage error (exit status 64) without the usage block: the list of labs is the help here.
                Console.error("\(error)")
                throw ExitCode.validationFailure
            }
        }
    }

    func run() throws {
        guard let name else {
            Console.print(Self.listing())
            return
        }
        let lab = try LabCatalog.lab(named: name)
        let count = rows ?? max(1, Int((Double(lab.defaultRows) * (scale ?? 1)).rounded()))
        let workspace = try options.workspace()
        let program = labProgram.map { URL(fileURLWithPath: $0).standardizedFileURL }
        let result = try measure(lab, rows: count, with: LabRunner(workspace: workspace, binary: program))
        if json {
            Console.print(result.json + "\n")
        } else {
            let terminal = options.terminal
            Console.print(result.report.render(lab, colors: terminal.colors, width: terminal.proseWidth))
        }
    }

    /// Builds the lab program (unless one was given) and runs `lab`, with a progress display that is gone
    /// before the results are printed.
    private func measure(_ lab: Lab, rows: Int, with runner: LabRunner) throws -> (report: LabReport, json: String) {
        let progress = LabProgress()
        defer { progress.finish() }
        if runner.binary == nil {
            let label = "building the labs in release mode (.build/labs)"
            progress.update(label, done: 0, total: nil)
            try runner.build { done, total in progress.update(label, done: done, total: total) }
        }
        return try runner.run(lab, rows: rows) { label, done, total in
            progress.update(label, done: done, total: total)
        }
    }

    static func listing() -> String {
        var text = "Labs measure what the source documents claim, on this machine:\n\n"
        let width = LabCatalog.all.map(\.name.count).max() ?? 0
        for lab in LabCatalog.all {
            text += "  " + lab.name + String(repeating: " ", count: width - lab.name.count) + "  " + lab.summary + "\n"
        }
        text += "\nRun one with `swift run lessons lab NAME` (add --rows N or --scale F to run smaller, --json for "
            + "machines).\n"
        return text
    }
}
