import Foundation
import Persistence

/// A departure board in the terminal: platforms with lines of text, kept by a fetched results controller's
/// row-by-row callbacks. It prints each callback as it arrives, and changes its lines only when the batch is over.
final class DepartureBoard: FetchedResultsControllerDelegate {
    /// One platform on the board.
    struct Platform {
        var name: String
        var indexTitle: String?
        var lines: [String]
    }

    /// What a callback asked for, kept until the batch ends.
    private enum Edit {
        case dropLine(IndexPath)
        case addLine(IndexPath, String)
        case redrawLine(IndexPath, String)
        case dropPlatform(Int)
        case addPlatform(Int, Platform)
    }

    private(set) var platforms: [Platform] = []
    /// How many batches the board has applied.
    private(set) var batches = 0
    private var edits: [Edit] = []
    /// Whether to print each callback as it arrives.
    var narrates = true

    /// The board's text for a departure: `08:25  IC 512  Bristol      delayed`.
    static func line(for departure: Departure) -> String {
        let time = String(format: "%02d:%02d", departure.time / 60, departure.time % 60)
        return "\(time)  \(departure.train.padding(toLength: 8, withPad: " ", startingAt: 0))"
            + "\(departure.destination.padding(toLength: 10, withPad: " ", startingAt: 0))  \(departure.status)"
    }

    /// Fills the board from a fetch: the one time it reads the controller's results.
    func load(_ sections: [any FetchedResultsSectionInfo]) {
        platforms = sections.map { section in
            let departures = section.objects as? [Departure] ?? []
            return Platform(name: section.name, indexTitle: section.indexTitle, lines: departures.map(Self.line(for:)))
        }
    }

    /// The board as text, one platform after another.
    func render(indent: String = "   ") -> String {
        platforms.map { platform in
            "\(indent)Platform \(platform.name)   [index: \(platform.indexTitle ?? "-")]\n"
                + platform.lines.map { "\(indent)  \($0)" }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    private func say(_ text: String) {
        if narrates { print("     " + text) }
    }

    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        edits = []
        say("will change")
    }

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType) {
        say("platform \(sectionInfo.name): section \(type) at \(sectionIndex)")
        if type == .insert {
            edits.append(.addPlatform(sectionIndex, Platform(name: sectionInfo.name, indexTitle: sectionInfo.indexTitle,
                                                             lines: [])))
        } else if type == .delete {
            edits.append(.dropPlatform(sectionIndex))
        }
    }

    // region: collect
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let departure = anObject as? Departure else { return }
        let from = indexPath.map { "\($0)" } ?? "-"
        let to = newIndexPath.map { "\($0)" } ?? "-"
        // A departure deleted in another context and merged here has no values left to show.
        say("\(type) \(from) → \(to)  " + (departure.managedObjectContext == nil ? "(deleted)" : departure.train))
        switch type {
        case .delete:
            edits.append(.dropLine(indexPath!))
        case .insert:
            edits.append(.addLine(newIndexPath!, Self.line(for: departure)))
        case .move:
            // Out of its old line, into its new one, drawn with its new values: no update follows a move.
            edits.append(.dropLine(indexPath!))
            edits.append(.addLine(newIndexPath!, Self.line(for: departure)))
        case .update:
            // The line to redraw is the one at indexPath, on the board as it still is; what to draw is anObject.
            edits.append(.redrawLine(indexPath!, Self.line(for: departure)))
            warnIfAppleSampleWouldMisread(controller, at: indexPath!, updating: departure)
        }
    }
    // endregion: collect

    /// Apple's old sample drew an update from `controller.object(at: indexPath)`; says what that would have read.
    private func warnIfAppleSampleWouldMisread(_ controller: FetchedResultsController<any FetchRequestResult>,
                                               at path: IndexPath, updating departure: Departure) {
        guard let sections = controller.sections, path.section < sections.count,
              path.row < sections[path.section].numberOfObjects,
              let there = controller.object(at: path) as? Departure, there !== departure else { return }
        say("  (controller.object(at: \(path)) is \(there.train) now: the results already include the batch)")
    }

    // region: apply
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        // A table view's order: what goes, where it was (bottom up); then what comes, where it goes (top down).
        var drops: [IndexPath] = [], adds: [(IndexPath, String)] = []
        var dropPlatforms: [Int] = [], addPlatforms: [(Int, Platform)] = []
        for edit in edits {
            switch edit {
            case .redrawLine(let path, let text): platforms[path.section].lines[path.row] = text
            case .dropLine(let path): drops.append(path)
            case .addLine(let path, let text): adds.append((path, text))
            case .dropPlatform(let index): dropPlatforms.append(index)
            case .addPlatform(let index, let platform): addPlatforms.append((index, platform))
            }
        }
        drops.sorted(by: >).forEach { platforms[$0.section].lines.remove(at: $0.row) }
        dropPlatforms.sorted(by: >).forEach { platforms.remove(at: $0) }
        addPlatforms.sorted { $0.0 < $1.0 }.forEach { platforms.insert($0.1, at: $0.0) }
        adds.sorted { $0.0 < $1.0 }.forEach { platforms[$0.0.section].lines.insert($0.1, at: $0.0.row) }
        batches += 1
        say("did change: \(edits.count) edit(s) applied")
    }
    // endregion: apply
}
