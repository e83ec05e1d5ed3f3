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
        throw LessonsError(.unknownChoice, "unknown command \"\(first)\". Commands: \(names.joined(separator: ", ")) "
            + "(see lessons --help).")
    }

    func run() throws {
        let catalog = try options.catalog()
        let store = options.progressStore(catalog.workspace)
        let overview = LessonOverview(catalog: catalog, progress: store.progress)
        Console.print(overview.render(language: options.language, colors: options.terminal.colors))
    }
}
