import ArgumentParser
import LessonsKit

struct HintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hint",
        abstract: "Reveal the next hint for a kata (the ones already revealed are shown again above it).",
        discussion: """
            Every kata has its own hints, from the idea behind it to close to the answer. Without a kata, the \
            hint is for the first kata that did not pass at your last check. How many you have seen is kept in \
            the progress file.
            """)

    @Argument(help: "The lesson: its number or slug.")
    var lesson: String

    @Argument(help: "The kata: its number in the suite, its name, or the start of its name.")
    var kata: String?

    @Flag(name: .customLong("forget"), help: "Hide the revealed hints again (of the kata, or of the whole lesson).")
    var forget = false

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        let suite = try KataSuite.load(lesson, workspace: catalog.workspace)
        let named = try kata.map { name throws(LessonsError) in try suite.kata(named: name) }
        var store = options.progressStore(catalog.workspace)
        if forget {
            try store.update { progress in
                if let named { progress[lesson].hintsRevealed[named] = nil } else { progress[lesson].hintsRevealed = [:] }
            }
            Console.print((named.map { "The hints of lesson \(lesson.number)'s kata \($0)" }
                ?? "Lesson \(lesson.number)'s hints") + " are hidden again.\n")
            return
        }
        guard let kata = named ?? KataHints.kataNeedingHelp(in: suite, progress: store.progress[lesson]) else {
            Console.print("Every kata of lesson \(lesson.number) passed at your last check. For one kata's hints: "
                + "swift run lessons hint \(lesson.number) <kata>\n")
            return
        }
        let hints = KataHints(lesson: lesson, suite: suite, kata: kata, progress: store.progress[lesson])
        guard !hints.hints.isEmpty else {
            throw LessonsError(.notThereYet, "lesson \(lesson.number)'s kata \(hints.number) (\(kata)) has no hints yet.")
        }
        if hints.shown != hints.before {
            try store.update { $0[lesson].hintsRevealed[kata] = hints.shown }
        }
        let terminal = options.terminal
        let renderer = TerminalRenderer(options: .init(width: terminal.proseWidth - 4, colors: terminal.colors))
        // A hint may be translated even where the lesson text is not; LocalizedText falls back to English.
        let language = options.language
        var text = ""
        for index in 0..<hints.shown {
            let heading = "Hint \(index + 1) of \(hints.hints.count) — lesson \(lesson.number), kata \(hints.number) "
                + "(\(kata))"
            text += (terminal.colors ? "\u{1B}[1m\(heading)\u{1B}[0m" : heading) + "\n"
            let document = try MarkdownParser.parse(hints.hints[index].text(in: language))
            text += renderer.render(document).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") + "\n"
        }
        if hints.exhausted {
            text += "That was this kata's last hint. The solution opens once the katas pass: swift run lessons check "
                + "\(lesson.number)\n"
        } else if hints.shown < hints.hints.count {
            text += "More: swift run lessons hint \(lesson.number) \(hints.number) "
                + "(\(hints.hints.count - hints.shown) left)\n"
        }
        Console.print(text)
    }
}
