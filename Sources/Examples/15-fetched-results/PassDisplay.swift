import Foundation
import Persistence

/// The kitchen's display above the pass, in the terminal: one scroll of lines — a heading per station, then a line
/// per ticket — kept by a fetched results controller's row-by-row callbacks. The controller speaks in index paths
/// (station, ticket); the display has no sections, only line numbers, so it turns each index path into one — in
/// the scroll as it was before the batch, or as it will be after it, as the index path counts. It prints each
/// callback as it arrives, and changes its lines only when the batch is over.
///
/// `@unchecked Sendable`: it is used on the main queue alone, the view context's, where the context's
/// notifications arrive too.
final class PassDisplay: FetchedResultsControllerDelegate, @unchecked Sendable {
    /// One line of the scroll.
    struct Line: Equatable {
        /// A station's heading, or a ticket's line.
        var isHeading: Bool
        var text: String
    }

    private(set) var lines: [Line] = []
    /// How many batches the display has applied.
    private(set) var batches = 0
    /// Whether to print each callback as it arrives.
    var narrates = true

    // What the batch asked for, kept until it ends. Index paths before the batch…
    private var redrawn: [(IndexPath, String)] = []
    private var leaving: [IndexPath] = []
    private var closedStations: [Int] = []
    // …and after it.
    private var coming: [(IndexPath, String)] = []
    private var openedStations: [(Int, String)] = []
    private var tableWatch: (any NSObjectProtocol)?
    /// The controller whose tickets' tables the display follows.
    private weak var followed: FetchedResultsController<Ticket>?

    deinit {
        if let tableWatch { NotificationCenter.default.removeObserver(tableWatch) }
    }

    /// A ticket's line: `19:05  ribeye        table 7 · Ana     waiting`.
    static func text(for ticket: Ticket) -> String {
        let time = String(format: "%02d:%02d", ticket.due / 60, ticket.due % 60)
        let table = ticket.table.map { "table \($0.number) · \($0.server)" } ?? "-"
        return "\(time)  \(ticket.dish.padding(toLength: 12, withPad: " ", startingAt: 0))  "
            + "\(table.padding(toLength: 16, withPad: " ", startingAt: 0))  \(ticket.status)"
    }

    /// A station's heading: `── grill ── [G]`, with its entry in the section index.
    static func heading(_ station: any FetchedResultsSectionInfo) -> String {
        "── \(station.name) ── [\(station.indexTitle ?? "-")]"
    }

    /// Fills the scroll from a fetch: the one time the display reads the controller's results.
    func load(_ stations: [any FetchedResultsSectionInfo]) {
        lines = stations.flatMap { station in
            [Line(isHeading: true, text: Self.heading(station))]
                + (station.objects as? [Ticket] ?? []).map { Line(isHeading: false, text: Self.text(for: $0)) }
        }
    }

    /// The scroll, one line under the other.
    func render(indent: String = "   ") -> String {
        lines.map { indent + ($0.isHeading ? "" : "  ") + $0.text }.joined(separator: "\n")
    }

    /// The line number of the heading of `section`, counting the headings in the scroll as it stands now; past the
    /// last line when there are not that many.
    private func headingLine(of section: Int) -> Int {
        lines.indices.filter { lines[$0].isHeading }.dropFirst(section).first ?? lines.count
    }

    /// The line number of a ticket: its station's heading, then as many tickets as its row.
    private func ticketLine(at path: IndexPath) -> Int {
        headingLine(of: path.section) + 1 + path.row
    }

    private func say(_ text: String) {
        if narrates { print("     " + text) }
    }

    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        (redrawn, leaving, closedStations, coming, openedStations) = ([], [], [], [], [])
        say("will change")
    }

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType) {
        say("station \(sectionInfo.name): section \(type) at \(sectionIndex)")
        // A closed station's index counts the stations before the batch, an opened one's the stations after it.
        if type == .delete { closedStations += [sectionIndex] }
        if type == .insert { openedStations += [(sectionIndex, Self.heading(sectionInfo))] }
    }

    // region: collect
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let ticket = anObject as? Ticket else { return }
        // A ticket deleted in another context and merged here has no values left to show.
        let name = ticket.managedObjectContext == nil ? "(deleted)" : ticket.dish
        say("\(type) \(indexPath.map { "\($0)" } ?? "-") → \(newIndexPath.map { "\($0)" } ?? "-")  \(name)")
        switch (type, indexPath, newIndexPath) {
        case (.delete, let before?, _):
            leaving += [before]
        case (.insert, _, let after?):
            coming += [(after, Self.text(for: ticket))]
        case (.move, let before?, let after?):
            // Out of its old line, into its new one, drawn with its new values: no update follows a move.
            leaving += [before]
            coming += [(after, Self.text(for: ticket))]
        case (.update, let before?, _):
            // The line to redraw is the one at `before`, in the scroll as it still is; what to draw is the ticket.
            redrawn += [(before, Self.text(for: ticket))]
            warnIfAppleSampleWouldMisread(controller, at: before, updating: ticket)
        default:
            break
        }
    }
    // endregion: collect

    /// Apple's old sample drew an update from `controller.object(at: indexPath)`; says what that would have read.
    private func warnIfAppleSampleWouldMisread(_ controller: FetchedResultsController<any FetchRequestResult>,
                                               at path: IndexPath, updating ticket: Ticket) {
        guard let stations = controller.sections, path.section < stations.count,
              path.row < stations[path.section].numberOfObjects,
              let there = controller.object(at: path) as? Ticket, there !== ticket else { return }
        say("  (controller.object(at: \(path)) is the \(there.dish) now: the results already include the batch)")
    }

    // region: apply
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        // First the scroll as it was: redraws and removals count in it, so every one of them becomes a line number
        // before a single line comes or goes.
        for (path, text) in redrawn { lines[ticketLine(at: path)].text = text }
        let gone = Set(leaving.map(ticketLine(at:)) + closedStations.map(headingLine(of:)))
        lines = lines.indices.filter { !gone.contains($0) }.map { lines[$0] }
        // Then the scroll as it will be: opened stations, then arriving tickets, each in the order of its index
        // path, so that everything above it already stands where the batch leaves it.
        let opening = openedStations.sorted { $0.0 < $1.0 }, arriving = coming.sorted { $0.0 < $1.0 }
        for (section, heading) in opening {
            lines.insert(Line(isHeading: true, text: heading), at: headingLine(of: section))
        }
        for (path, text) in arriving {
            lines.insert(Line(isHeading: false, text: text), at: ticketLine(at: path))
        }
        batches += 1
        say("did change: \(redrawn.count) redrawn, \(gone.count) line(s) out, "
            + "\(openedStations.count + coming.count) in")
    }
    // endregion: apply

    // region: related
    /// Follows the tables of `controller`'s tickets as well: the controller tells of changes to the tickets
    /// themselves, never of a change to a table they show, so the display watches its context for changed tables
    /// and redraws the lines of their tickets — the ones the controller holds, where it holds them.
    func followTables(of controller: FetchedResultsController<Ticket>) {
        followed = controller
        tableWatch = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: controller.managedObjectContext,
            queue: nil
        ) { [weak self] note in
            guard let self, let controller = followed else { return }
            // Changed here (updated), or merged from another context: under which key, Apple does not say.
            let changed = [ManagedObjectContext.NotificationKey.updatedObjects, .refreshedObjects].flatMap { key in
                (note.userInfo?[key.rawValue] as? Set<ManagedObject>) ?? []
            }
            for table in changed.compactMap({ $0 as? DiningTable }) {
                for ticket in table.tickets.sorted(by: { $0.due < $1.due }) {
                    guard let path = controller.indexPath(forObject: ticket) else { continue }
                    lines[ticketLine(at: path)].text = Self.text(for: ticket)
                    say("table \(table.number) changed: line of the \(ticket.dish) at \(path) redrawn")
                }
            }
        }
    }
    // endregion: related
}
