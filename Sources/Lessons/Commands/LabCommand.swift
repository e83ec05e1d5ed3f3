import ArgumentParser
import LessonsKit

struct LabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Run a performance lab (not available yet: this says what is planned).")

    @Argument(help: "The lab to run.")
    var name: String?

    @OptionGroup var options: CommonOptions

    func run() throws {
        throw LessonsError(.notThereYet, """
            the performance labs are not there yet. Planned: a contains[cd] search over 1.6 million rows, \
            deleting 10,000 decks three ways (child context, context, batch delete), and a large import with \
            automatic merging — each a release build with a progress bar and a table beside the source \
            documents' figures.
            """)
    }
}
