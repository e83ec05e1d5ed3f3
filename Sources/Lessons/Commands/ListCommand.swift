import ArgumentParser
import LessonsKit

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the lessons with your progress and the next step (the default command).")

    /// `list` is the default command, so a mistyped command name arrives here as an argument.
    @Argument(help: .hidden)
    var stray: [String] = []

    @OptionGroup var options: CommonOptions

    func validate() throws {
        guard let first = stray.first else { return }
        let names = LessonsCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        // A usage error like the parser's own (exit status 64), without its usage block: the list of
        // commands is the help that matters here.
        Console.error("unknown command \"\(first)\". Commands: \(names.joined(separator: ", ")) (see lessons --help).")
        throw ExitCode.validationFailure
    }

    func run() throws {
        let catalog = try options.catalog()
        let store = options.progressStore(catalog.workspace)
        let overview = LessonOverview(catalog: catalog, progress: store.progress)
        let terminal = options.terminal
        let text = overview.render(language: options.language, colors: terminal.colors)
        Console.print(TextWrapping.wrap(TextWrapping.keepingCommandsTogether(text), width: terminal.proseWidth, hangingIndent: Self.hangingIndent))
    }

    /// Where a wrapped line continues: a lesson's title under its title (after the number and the status
    /// column, `   4  0/5 katas   `), the next step after "Next: ".
    static func hangingIndent(_ line: String) -> Int {
        if line.hasPrefix("Next: ") { return 6 }
        let number = line.drop { $0 == " " }
        return number.first?.isNumber == true && line.hasPrefix(" ") ? 18 : 0
    }
}
