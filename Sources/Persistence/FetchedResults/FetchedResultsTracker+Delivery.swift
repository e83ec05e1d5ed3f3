import Foundation

/// Telling the delegate about a batch, in the one form it takes: a snapshot, a difference, or row by row (see
/// ``FetchedResultsControllerDelegate``).
///
/// Which methods a delegate implements is found by offering them: a default implementation that runs marks the
/// method lacking (``FetchedResultsTracker/delegateLacks(_:)``). The results are set to the batch's before a form is
/// offered, as its implementation reads them; when the form turns out to be lacking they are set back, so that
/// row-by-row delivery still calls ``FetchedResultsControllerDelegate/controllerWillChangeContent(_:)`` before they
/// change. Only the first batch after a delegate is set pays for finding out.
///
/// Core Data tracks changes only for a delegate that implements at least one change-tracking method. A delegate
/// found to implement none (every method the first batch called was a default) is treated as Core Data treats it:
/// the batch is undone — the results go back to what the fetch left — and the controller stops following the
/// context. The defaults do nothing, so the delegate saw nothing of the batch. A method the batch did not call (the
/// section method without section changes, the difference method with sections) is counted as missing: the
/// stricter reading.
extension FetchedResultsTracker {
    func deliver(_ batch: FetchedResultsBatch, replacing old: [FetchedResultsSection],
                 to delegate: any FetchedResultsControllerDelegate) {
        guard let view = delegateView() else {
            replace(with: batch.sections)
            return
        }
        if !lacks.contains(.snapshot) {
            replace(with: batch.sections)
            // No item is marked for reload: the stricter reading (see `snapshot()`).
            delegate.controller(view, didChangeContentWith: snapshot())
            if !lacks.contains(.snapshot) {
                tracksChanges = true
                return
            }
            replace(with: old)
        }
        // Apple: the difference is sent only without a section key path (Core Data logs that it is not supported
        // with one, and reports row by row).
        if sectionKeyPath == nil, !lacks.contains(.difference) {
            replace(with: batch.sections)
            delegate.controller(view, didChangeContentWith: difference(of: batch))
            if !lacks.contains(.difference) {
                tracksChanges = true
                rememberReportedIDs()
                return
            }
            replace(with: old)
        }
        delegate.controllerWillChangeContent(view)
        replace(with: batch.sections)
        // Apple: "The fetched results controller reports changes to its section before changes to the fetched
        // objects themselves." Within each, Core Data's order: insertions before deletions for sections; deletions,
        // insertions, then moves and updates for objects.
        for (section, index) in batch.insertedSections {
            delegate.controller(view, didChange: section, atSectionIndex: index, for: .insert)
        }
        for (section, index) in batch.deletedSections {
            delegate.controller(view, didChange: section, atSectionIndex: index, for: .delete)
        }
        for (object, indexPath) in batch.deletedRows {
            delegate.controller(view, didChange: object, at: indexPath, for: .delete, newIndexPath: nil)
        }
        for (object, newIndexPath) in batch.insertedRows {
            delegate.controller(view, didChange: object, at: nil, for: .insert, newIndexPath: newIndexPath)
        }
        for (object, indexPath, newIndexPath) in batch.movedRows {
            delegate.controller(view, didChange: object, at: indexPath, for: .move, newIndexPath: newIndexPath)
        }
        for (object, indexPath, newIndexPath) in batch.updatedRows {
            delegate.controller(view, didChange: object, at: indexPath, for: .update, newIndexPath: newIndexPath)
        }
        delegate.controllerDidChangeContent(view)
        guard !tracksChanges else { return }
        let called: [DelegateForm] = [.willChange, .didChange]
            + (batch.hasRowChanges ? [.objectChange] : [])
            + (batch.insertedSections.isEmpty && batch.deletedSections.isEmpty ? [] : [.sectionChange])
        if called.contains(where: { !lacks.contains($0) }) {
            tracksChanges = true
        } else {
            // No change-tracking method of its own (the section method, if not called, counts as missing): Core
            // Data would not have tracked this batch at all.
            replace(with: old)
            stopObserving()
        }
    }

    /// The results as a snapshot: sections by name, objects by ID, and no item marked for reload or reconfiguring.
    ///
    /// Apple documents nothing about marks in the controller's snapshot. Developers reported that on iOS 13 and 14 an
    /// updated object kept its ID and was not marked, so its row was not drawn again unless the app marked it; on
    /// Apple's forums, iOS 15's controller is said to mark changed items for reload. The stricter reading is taken:
    /// no marks, so an app that marks the items it changed itself is right on every version.
    func snapshot() -> DiffableDataSourceSnapshotReference {
        var snapshot = DiffableDataSourceSnapshotReference()
        for section in sections ?? [] {
            snapshot.appendSections([section.name])
            snapshot.appendItems(section.rows.map(\.objectID), toSection: section.name)
        }
        return snapshot
    }

    /// The batch as Core Data's difference of object IDs, for a controller with one section: removals at old
    /// offsets, insertions at new ones, and every moved or updated object as a removal and an insertion
    /// associated with each other.
    func difference(of batch: FetchedResultsBatch) -> CollectionDifference<ManagedObjectID> {
        var changes: [CollectionDifference<ManagedObjectID>.Change] = []
        for (object, indexPath) in batch.deletedRows {
            changes.append(.remove(offset: indexPath[1], element: object.objectID, associatedWith: nil))
        }
        for (object, newIndexPath) in batch.insertedRows {
            changes.append(.insert(offset: newIndexPath[1], element: object.objectID, associatedWith: nil))
        }
        for (object, indexPath, newIndexPath) in batch.movedRows + batch.updatedRows {
            changes.append(.remove(offset: indexPath[1], element: object.objectID, associatedWith: newIndexPath[1]))
            changes.append(.insert(offset: newIndexPath[1], element: object.objectID, associatedWith: indexPath[1]))
        }
        guard let difference = CollectionDifference(changes) else {
            preconditionFailure("\(controllerName): a batch made an inconsistent difference: \(changes)")
        }
        return difference
    }
}
