import ArgumentParser
import LessonsKit

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Maintainers' check: every lesson text renders, and each lesson has katas, starter, solution, example.",
        discussion: """
            Checks what exists today: the manifest, every written lesson text (included code regions, links to \
            lessons, images) and which kata files, starters, solutions and examples exist. Fails while any is missing.
            """)

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let (text, ok) = CatalogVerifier(catalog: catalog).report()
        Console.print(text)
        if !ok { throw ExitCode.failure }
    }
}
