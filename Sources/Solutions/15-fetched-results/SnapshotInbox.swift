import Foundation
import KataSupport
import Persistence

/// The inbox on a newer screen: a list fed by snapshots. Its delegate method hands the controller's snapshot to a
/// diffable data source (``InboxDataSource``, the stand-in for UIKit's), which draws a row only for a new item or an
/// item the snapshot marks.
///
/// Lesson 15, kata 10. Check with `swift run lessons check 15`.
public final class SnapshotInbox: FetchedResultsControllerDelegate {
    /// The list's rows, drawn by the data source.
    public let dataSource: InboxDataSource

    /// A list of `context`'s messages: the data source draws a message's row from its ID.
    public init(context: ManagedObjectContext) {
        dataSource = InboxDataSource { [weak context] id in
            (context?.object(with: id) as? MailMessage).map(InboxRow.init(drawing:))
        }
    }

    /// Kata 10: after the fetch and after each batch of changes, the list shows the controller's results, and draws
    /// again the rows of the messages that changed — only those.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChangeContentWith snapshot: DiffableDataSourceSnapshotReference) {
        var snapshot = snapshot
        // A message that changed keeps its ID, and the snapshot does not mark it: the rows on screen that no longer
        // read as their message are the changed ones, whether the change was made here or merged from elsewhere.
        let stale = snapshot.itemIdentifiers.filter { id in
            guard let row = dataSource.row(for: id), !snapshot.reloadedItemIdentifiers.contains(id) else { return false }
            return row.text != InboxRow.text(for: row.message)
        }
        snapshot.reconfigureItems(stale)
        dataSource.apply(snapshot)
    }
}
