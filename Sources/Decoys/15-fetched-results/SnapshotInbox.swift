import Foundation
import KataSupport
import Persistence

/// Lesson 15's ``SnapshotInbox`` with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class SnapshotInbox: FetchedResultsControllerDelegate {
    public let dataSource: InboxDataSource

    public init(context: ManagedObjectContext) {
        dataSource = InboxDataSource { [weak context] id in
            (context?.object(with: id) as? MailMessage).map(InboxRow.init(drawing:))
        }
    }

    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChangeContentWith snapshot: DiffableDataSourceSnapshotReference) {
        var snapshot = snapshot
        if Decoy.isActive("snapshot-applied-as-is") {
            // Mistake: Apple's sample code — the snapshot as it comes, so a changed message keeps its old row.
        } else if Decoy.isActive("snapshot-reconfigures-everything") {
            // Mistake: every item is marked, so every row is drawn again after each batch.
            snapshot.reconfigureItems(snapshot.itemIdentifiers)
        } else if Decoy.isActive("snapshot-trusts-controller-marks") {
            // Mistake: the items the controller marked for reload taken for the changed ones, as iOS 15 is reported to
            // mark them — a mark no documentation promises, and that Core Data before iOS 15 (and Persistence) never
            // makes.
            snapshot.reconfigureItems(snapshot.reloadedItemIdentifiers)
        } else if Decoy.isActive("snapshot-reconfigures-updated-objects") {
            // Mistake: the objects with unsaved changes are taken for the changed ones — a merged change has none,
            // and an object changed in an earlier batch still has them.
            let context = controller.managedObjectContext
            snapshot.reconfigureItems(snapshot.itemIdentifiers.filter { context.registeredObject(for: $0)?.isUpdated == true })
        } else {
            let stale = snapshot.itemIdentifiers.filter { id in
                guard let row = dataSource.row(for: id), !snapshot.reloadedItemIdentifiers.contains(id) else { return false }
                return row.text != InboxRow.text(for: row.message)
            }
            snapshot.reconfigureItems(stale)
        }
        dataSource.apply(snapshot)
    }
}
