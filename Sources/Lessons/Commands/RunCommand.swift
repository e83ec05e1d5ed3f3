import ArgumentParser
import LessonsKit

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a lesson's example code and watch the behaviour the lesson describes.")

    @Argument(help: "The lesson: its number or slug.")
    var lesson: String

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        let example = lesson.example
        guard catalog.workspace.exists(example.path) else {
            throw LessonsError(.notThereYet, "lesson \(lesson.number)'s runnable example is not written yet "
                + "(\(example.path) does not exist; it will run as `swift run \(example.product)`).")
        }
        let arguments = ["swift", "run"] + catalog.workspace.buildOptions + [example.product]
        Console.note("$ " + arguments.joined(separator: " "))
        let status = try ProcessRunner.runAttached(arguments, in: catalog.workspace.packageRoot)
        if status != 0 { throw ExitCode(status) }
    }
}
