import ArgumentParser
import LessonsKit

struct HintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hint",
        abstract: "Reveal a lesson's next hint (the ones already revealed are shown again above it).",
        discussion: "Hints come one at a time; how many you have seen is kept in the progress file.")

    @Argument(help: "The lesson: its number or slug.")
    var lesson: String

    @Flag(name: .customLong("forget"), help: "Hide the revealed hints again, to start over.")
    var forget = false

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        var store = options.progressStore(catalog.workspace)
        if forget {
            try store.update { $0[lesson].hintsRevealed = 0 }
            Console.print("Lesson \(lesson.number)'s hints are hidden again.\n")
            return
        }
        guard !lesson.hints.isEmpty else {
            throw LessonsError(.notThereYet, "lesson \(lesson.number) has no hints yet.")
        }
        let before = min(store.progress[lesson].hintsRevealed, lesson.hints.count)
        let shown = min(before + 1, lesson.hints.count)
        if shown != before { try store.update { $0[lesson].hintsRevealed = shown } }
        let terminal = options.terminal
        let renderer = TerminalRenderer(options: .init(width: terminal.proseWidth - 4, colors: terminal.colors))
        // A hint may be translated even where the lesson text is not; LocalizedText falls back to English.
        let language = options.language
        var text = ""
        for index in 0..<shown {
            let heading = "Hint \(index + 1) of \(lesson.hints.count) — lesson \(lesson.number)"
            text += (terminal.colors ? "\u{1B}[1m\(heading)\u{1B}[0m" : heading) + "\n"
            let document = try MarkdownParser.parse(lesson.hints[index].text(in: language))
            text += renderer.render(document).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") + "\n"
        }
        if before == lesson.hints.count {
            text += "That was the last hint. The solution opens once the katas pass: swift run lessons check "
                + "\(lesson.number)\n"
        } else if shown < lesson.hints.count {
            text += "More: swift run lessons hint \(lesson.number) (\(lesson.hints.count - shown) left)\n"
        }
        Console.print(text)
    }
}
