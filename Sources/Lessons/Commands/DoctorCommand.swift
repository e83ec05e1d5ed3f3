import Foundation
import ArgumentParser
import LessonsKit

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check this machine for Swift, SQLite and cmark, and print the command that installs what is missing.")

    func run() throws {
        let colors = TerminalInfo.standardOutput(environment: ProcessInfo.processInfo.environment).colors
        let (text, ok) = Doctor().report(colors: colors)
        Console.print(text)
        if !ok { throw ExitCode.failure }
    }
}
