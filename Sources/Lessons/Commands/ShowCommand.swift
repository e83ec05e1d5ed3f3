import ArgumentParser
import LessonsKit

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Read a lesson in the terminal.",
        discussion: """
            Colours and a pager only when the output is a terminal; plain text when it is piped or NO_COLOR is set.
            """)

    @Argument(help: "The lesson: its number (4) or slug (contexts-and-crud).")
    var lesson: String

    @Option(help: "Wrap prose to this many columns (default: the terminal's width, at most 100).")
    var width: Int?

    @Flag(name: .customLong("no-pager"), help: "Print everything at once, even on a terminal.")
    var noPager = false

    @OptionGroup var options: CommonOptions

    func validate() throws {
        if let width, width < 20 { throw ValidationError("--width must be at least 20 (got \(width)).") }
    }

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        let language = try Self.language(for: lesson, wanted: options.language, catalog: catalog)
        let loaded = try LessonLoader(catalog: catalog).load(lesson, language: language)
        let terminal = options.terminal
        let width = width ?? terminal.proseWidth
        let renderer = TerminalRenderer(options: .init(width: width, colors: terminal.colors,
                                                       codeWidth: terminal.codeWidth))
        let dim = { (lines: [String]) in
            lines.map { TextStyle(dim: true).paint($0, colors: terminal.colors) + "\n" }.joined()
        }
        var text = dim(TextWrapping.join(["Lesson \(lesson.number) of \(catalog.lessons.count)", loaded.file],
                                         width: width)) + "\n"
        text += renderer.render(loaded.document)
        text += "\n" + dim(TextWrapping.join(["Katas: swift run lessons check \(lesson.number)",
                                              "Hint: swift run lessons hint \(lesson.number)",
                                              "Example: swift run lessons run \(lesson.number)"], width: width))
        var store = options.progressStore(catalog.workspace)
        try? store.update { $0[lesson].read = true }
        Pager.show(text, terminal: terminal, environment: options.environment, usePager: !noPager)
    }

    /// The wanted language when the lesson is written in it; otherwise the one it is written in, with a note.
    static func language(for lesson: Lesson, wanted: Language, catalog: Catalog) throws -> Language {
        let written = catalog.writtenLanguages(of: lesson)
        guard let first = written.first else {
            let file = catalog.workspace.displayPath(catalog.textFile(of: lesson, language: lesson.languages[0]))
            throw LessonsError(.notThereYet, "lesson \(lesson.number), \(lesson.title.text(in: wanted)), is not "
                + "written yet (\(file) does not exist). `lessons list` shows which lessons are.")
        }
        if written.contains(wanted) { return wanted }
        Console.note("Lesson \(lesson.number) is not written in \(wanted.nativeName); showing \(first.nativeName).")
        return first
    }
}
