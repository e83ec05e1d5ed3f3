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
            the work, its time here, and the document's own figure.
            """)

    @Argument(help: "The lab: search, delete, import or faults.")
    var name: String?

    @Option(help: ArgumentHelp("Run smaller: this many rows instead of the lab's full size.", valueName: "n"))
    var rows: Int?

    @Option(help: ArgumentHelp("Run smaller or larger: the full size times this factor (0 < f ≤ 10).",
                               valueName: "f"))
    var scale: Double?

    @Flag(help: "Print the measurements as one JSON object, for machines.")
    var json = false

    @OptionGroup var options: CommonOptions

    func validate() throws {
        if let rows, rows <= 0 { throw ValidationError("--rows must be a positive number, not \(rows).") }
        if let scale, !(scale > 0 && scale <= 10) {
            throw ValidationError("--scale must be more than 0 and at most 10, not \(scale).")
        }
        if rows != nil && scale != nil { throw ValidationError("give --rows or --scale, not both.") }
    }

    func run() throws {
        guard let name else {
            Console.print(Self.listing())
            return
        }
        let lab = try LabCatalog.lab(named: name)
        let count = rows ?? max(1, Int((Double(lab.defaultRows) * (scale ?? 1)).rounded()))
        let catalog = try options.catalog()
        let runner = LabRunner(workspace: catalog.workspace)
        let bar = ProgressBar(label: "building the labs (release)", delay: 0.5)
        try runner.build { done, total in bar.update(done: done, total: total) }
        let result = try runner.run(lab, rows: count) { label, done, total in
            bar.update(label: label, done: done, total: total > 0 ? total : nil)
        }
        bar.finish()
        if json {
            Console.print(result.json + "\n")
        } else {
            let terminal = options.terminal
            Console.print(result.report.render(lab, colors: terminal.colors, width: terminal.proseWidth))
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
