import ArgumentParser
import Foundation
import LessonsKit

struct HTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "Write the HTML handouts: an index, a page per lesson, one page to print them all.",
        discussion: "The pages need no network and work straight from the folder (file://).")

    @Option(name: .customLong("out"), help: ArgumentHelp(
        "Folder to write into (default: <package-root>/handouts).", valueName: "dir"))
    var out: String?

    @Flag(name: .customLong("with-solutions"), help: ArgumentHelp(
        "Add the reference solutions for a teacher: a page per solution file and an appendix to all.html. "
            + "Learners' handouts leave them out; a learner opens one with `lessons solution N` once its katas pass."))
    var withSolutions = false

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let folder = out.map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? catalog.workspace.packageRoot.appendingPathComponent("handouts")
        let bar = ProgressBar(label: "handouts")
        let report = try HTMLSiteBuilder(catalog: catalog, withSolutions: withSolutions).write(into: folder) { done, total in
            bar.update(done: done, total: total)
        }
        bar.finish()
        let written = catalog.lessons.count - report.comingLessons.count
        var text = "Wrote \(report.files.count) files to \(folder.path): index.html, \(report.lessonPages) lesson "
            + "page\(report.lessonPages == 1 ? "" : "s") (\(written) of \(catalog.lessons.count) lessons written), "
            + "all.html for printing"
            + (withSolutions ? ", with the reference solutions (a teacher's copy).\n" : ".\n")
        if !report.comingLessons.isEmpty {
            text += "Listed as coming: lessons " + report.comingLessons.map(String.init).joined(separator: ", ") + ".\n"
        }
        text += "Open \(folder.appendingPathComponent("index.html").absoluteString)\n"
        Console.print(TextWrapping.wrap(text, width: options.terminal.lineWidth))
    }
}
