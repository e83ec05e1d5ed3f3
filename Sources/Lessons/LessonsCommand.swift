import ArgumentParser
import Foundation
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
            TransferCommand.self, LabCommand.self, DoctorCommand.self,
        ],
        defaultSubcommand: ListCommand.self
    )

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = negativeNumberProblem(in: arguments) {
            Console.error(problem)
            Self.exit(withError: ExitCode.validationFailure)
        }
        main(arguments)
    }

    /// Commands whose arguments name a lesson, then (for some) a kata.
    static let numberedArguments = [
        "show": ["lesson"], "run": ["lesson"], "hint": ["lesson"], "reset": ["lesson"], "solution": ["lesson"],
        "verify": ["lesson"], "transfer": ["lesson"], "check": ["lesson", "kata"], "watch": ["lesson", "kata"],
    ]

    /// `show -1` reads to the argument parser as an unknown option `-1` and then a missing lesson; say what
    /// is really wrong. A number after an `--option` is left to the parser, which knows whether it is the
    /// option's value.
    static func negativeNumberProblem(in arguments: [String]) -> String? {
        guard let command = arguments.first, let names = numberedArguments[command] else { return nil }
        var position = 0
        for (index, argument) in arguments.enumerated().dropFirst() {
            let previous = arguments[index - 1]
            if index > 1 && previous.hasPrefix("--") && !previous.contains("=") { continue }
            if argument == "--" { return nil }
            if argument.count > 1, argument.hasPrefix("-"), argument.dropFirst().allSatisfy(\.isNumber) {
                let name = names[min(position, names.count - 1)]
                return "there is no \(name) \(argument): \(name)s are numbered from 1"
                    + (name == "lesson" ? " (`lessons list` shows them)." : ".")
            }
            if !argument.hasPrefix("-") { position += 1 }
        }
        return nil
    }
}
