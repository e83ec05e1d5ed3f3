import Foundation

/// What a ``FetchedResultsController`` tells about its results as the context changes (Core Data's
/// `NSFetchedResultsControllerDelegate`). Every method has a default implementation, as Core Data's are optional:
/// implement the ones you need.
///
/// The controller tells its delegate in one of three ways, and only one:
///
/// - **A snapshot.** When the delegate implements `controller(_:didChangeContentWith:)` taking a
///   ``DiffableDataSourceSnapshotReference``, it gets a snapshot of all sections and object IDs after
///   ``FetchedResultsController/performFetch()`` and after each batch of changes — "no other delegate methods are
///   invoked", as Apple's documentation says. Updated objects are not marked for reload (see the method).
/// - **A difference.** Otherwise, for a controller without a section key path, when the delegate implements
///   `controller(_:didChangeContentWith:)` taking a `CollectionDifference<ManagedObjectID>`, it gets the difference
///   of each batch: removals at old offsets, insertions at new ones, and for every object that changed in place or
///   moved a removal and an insertion associated with each other (as Core Data builds it). Again no other method is
///   called. With a section key path Core Data logs that the difference form is not supported and uses the one
///   below; so does this controller.
/// - **Row by row**, bracketed: ``controllerWillChangeContent(_:)``, then
///   ``controller(_:didChange:atSectionIndex:for:)`` for sections inserted and deleted (sections first, as Apple
///   documents), then ``controller(_:didChange:at:for:newIndexPath:)`` for deletions, insertions, moves and updates,
///   then ``controllerDidChangeContent(_:)``.
///
/// Row-by-row index paths follow UIKit's batch updates (`performBatchUpdates`): a deletion is at the object's
/// old index path, an insertion at its new one, a move from old to new, and an update at its **old** index path
/// (the row to redraw), with its new index path as `newIndexPath` — read the object there, or take `anObject`.
/// Apple's own sample reads `object(at: indexPath)` for an update, which names another object once rows before it
/// were inserted or deleted in the same batch; Core Data passes both paths for that reason. Apply all of a batch's
/// deletions (old paths) before its insertions (new paths), as a table view does, and the rows equal
/// ``FetchedResultsController/sections`` after ``controllerDidChangeContent(_:)``.
///
/// The controller is handed to every method as `FetchedResultsController<any FetchRequestResult>` — Core Data's
/// `NSFetchedResultsController<NSFetchRequestResult>` — whatever its own `Result`: write the methods with exactly
/// that type, or Swift takes them for other methods and calls the default implementations instead. It is a view of
/// your controller that shares everything with it (see ``FetchedResultsController``).
///
/// Core Data tracks changes only for a delegate that implements at least one change-tracking method (all but
/// `controller(_:sectionIndexTitleForSectionName:)`, which Apple says "does not enable change tracking"). Swift cannot
/// ask an object which protocol methods it implements, so the controller finds out from the first batch after a
/// delegate is set: a default implementation that is called tells the controller the delegate lacks it, and the
/// controller stops trying that form. When every method that batch called was a default, the delegate implements
/// none: the batch is undone (the results are again those of the last fetch, and the defaults showed nothing) and
/// the controller stops following its context, as Core Data's never started. A delegate whose only change methods
/// are ones that batch does not call — the section method, in a batch that changes no section; the difference
/// method, on a controller with sections — is taken for one with none (the stricter reading).
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// The snapshot form: all sections (by name) and their objects' IDs, after a fetch and after each batch of
    /// changes. When implemented, no other method is called (Core Data's `controller(_:didChangeContentWith:)` taking
    /// an `NSDiffableDataSourceSnapshotReference`).
    ///
    /// No item is marked for reload: an object that changed keeps its ID, so a data source that applies the snapshot
    /// as it comes draws its row again only if the delegate marks it (`reconfigureItems(_:)` or `reloadItems(_:)`).
    /// Apple documents no marks; developers reported none on iOS 13 and 14, and Apple's forums say iOS 15 marks
    /// changed items for reload. Marking them yourself is right on every version.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChangeContentWith snapshot: DiffableDataSourceSnapshotReference)

    /// The difference form, for a controller without a section key path: each batch of changes as a difference of
    /// object IDs (see the protocol's description). When implemented, and the snapshot form is not, no other
    /// method is called.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChangeContentWith diff: CollectionDifference<ManagedObjectID>)

    /// A batch of changes begins (sent before the controller's results change).
    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>)

    /// An object of the results was inserted, deleted, moved or updated. `indexPath` is nil for an insertion,
    /// `newIndexPath` nil for a deletion; see the protocol's description for which path is which.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?)

    /// A section was inserted (at its new index) or deleted (at its old index). Sent before the batch's object
    /// changes.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType)

    /// A batch of changes ended: the controller's results are the new ones.
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>)

    /// The index title of a section named `sectionName`; the default is the controller's
    /// ``FetchedResultsController/sectionIndexTitle(forSectionName:)``. Asked once per section, when the section
    /// is made. Not a change-tracking method.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension FetchedResultsControllerDelegate {
    /// Not implemented: the controller stops offering snapshots to this delegate.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChangeContentWith snapshot: DiffableDataSourceSnapshotReference) {
        controller.tracker.delegateLacks(.snapshot)
    }

    /// Not implemented: the controller stops offering differences to this delegate.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChangeContentWith diff: CollectionDifference<ManagedObjectID>) {
        controller.tracker.delegateLacks(.difference)
    }

    /// Not implemented: does nothing, and counts as a change-tracking method the delegate lacks.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        controller.tracker.delegateLacks(.willChange)
    }

    /// Not implemented: does nothing, and counts as a change-tracking method the delegate lacks.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        controller.tracker.delegateLacks(.objectChange)
    }

    /// Not implemented: does nothing, and counts as a change-tracking method the delegate lacks.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                           for type: FetchedResultsChangeType) {
        controller.tracker.delegateLacks(.sectionChange)
    }

    /// Not implemented: does nothing, and counts as a change-tracking method the delegate lacks.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        controller.tracker.delegateLacks(.didChange)
    }

    /// The controller's own title: ``FetchedResultsController/sectionIndexTitle(forSectionName:)``.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.tracker.ownIndexTitle(forSectionName: sectionName)
    }
}
