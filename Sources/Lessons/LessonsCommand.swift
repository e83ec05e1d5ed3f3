import ArgumentParser
import LessonsKit

/// `lessons`: the learner's and the teacher's entry point to the workbook.
@main
struct LessonsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lessons",
        abstract: "Read the Core Data workbook's lessons, solve their katas, print handouts.",
        discussion: """
            The learner's loop: `lessons` shows where you are, `lessons show N` the lesson, `lessons run N` its \
            example, `lessons check N` (or `watch N`) its katas, `lessons hint N` a hint when stuck. \
            A lesson is named by its number (4) or its slug (contexts-and-crud).
            """,
        version: LessonsKit.version,
        subcommands: [
            ListCommand.self, ShowCommand.self, RunCommand.self, CheckCommand.self, WatchCommand.self,
            HintCommand.self, ResetCommand.self, SolutionCommand.self, HTMLCommand.self, VerifyCommand.self,
            LabCommand.self, DoctorCommand.self,
        ],
        defaultSubcommand: ListCommand.self
    )
}
