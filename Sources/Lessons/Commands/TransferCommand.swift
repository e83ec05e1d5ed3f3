import ArgumentParser
import LessonsKit

struct TransferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Maintainers' check: how much of each kata's answer its lesson's text and example already show.",
        discussion: """
            For each kata, takes the code its `kata(N, in: "File.swift", "symbol")` call names in the reference \
            solution (with the helpers it uses that the starter does not give), and counts the share of its \
            significant lines that the lesson's Swift code blocks or its example's files also hold, once names \
            and literals are normalised (a renamed copy still counts). A kata is flagged when the share reaches \
            50% of a solution of four or more lines: a learner could copy the example and practise nothing. \
            `lessons verify` reports the same flags, and fails on them in lessons whose manifest entry says \
            "transferReviewed": true.
            """)

    @Argument(help: "Only these lessons (numbers or slugs); default: all.")
    var lessons: [String] = []

    @Flag(name: .shortAndLong, help: "Under each kata, the longest lines the lesson shows and where it shows them.")
    var verbose = false

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let chosen = try lessons.map { name throws(LessonsError) in try catalog.lesson(named: name) }
        let measure = TransferMeasure(catalog: catalog)
        let entries = (chosen.isEmpty ? catalog.lessons : chosen).map {
            TransferReport.Entry(lesson: $0, katas: measure.measure($0))
        }
        Console.print(TransferReport(entries: entries).render(verbose: verbose, colors: options.terminal.colors))
    }
}
