import Foundation
import KataSupport
import Persistence

/// The inbox screen of a mail app: sections of rows, on the main queue, kept up to date by a fetched results
/// controller's delegate callbacks alone. After the first ``show(_:)`` it never reads the controller's results
/// again: each batch of changes is collected between `controllerWillChangeContent` and
/// `controllerDidChangeContent`, then applied as a table view applies a batch — drawing only the rows that changed.
///
/// A row is made only by drawing it: `InboxRow(drawing: message)`.
///
/// `@unchecked Sendable`: it is used on the main queue alone, the view context's, where the context's notifications
/// arrive too.
///
/// Lesson 15, katas 1, 2, 4–6, 8 and 11. Check with `swift run lessons check 15`.
public final class InboxScreen: FetchedResultsControllerDelegate, @unchecked Sendable {
    /// What the screen shows, section by section.
    public private(set) var sections: [InboxSection] = []

    public init() {}

    /// Kata 1: shows the controller's sections, as `performFetch()` left them, drawing each row once. Called after
    /// each `performFetch()`: it is the one time the screen reads the results.
    public func show(_ fetched: [any FetchedResultsSectionInfo]) throws {
        throw KataNotDone(lesson: 15)
    }

    /// Kata 2: the section index shows the folder's first two letters ("Taxes" and "Travel" get an entry each).
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        // Kata 2: Core Data's default, the first letter.
        controller.sectionIndexTitle(forSectionName: sectionName)
    }

    /// Katas 4–6: a batch begins; nothing on screen changes until it ends.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        // Katas 4–6: nothing is prepared yet.
    }

    /// Kata 6: a folder appeared (at its new index) or emptied (at its old index).
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                           for type: FetchedResultsChangeType) {
        // Kata 6: no section change is kept yet.
    }

    /// Katas 4–6: a message was inserted, deleted, moved or updated.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        // Katas 4–6: no change is kept yet.
    }

    /// Katas 4–6: the batch ends: apply it to ``sections``.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        // Katas 4–6: nothing is applied yet.
    }

    /// Kata 11: from now on, when a contact's entry changes — renamed here, or by the sync and merged — the rows of
    /// the messages from that contact are drawn again, and no other. `controller` is the one whose callbacks the
    /// screen follows.
    public func followContacts(of controller: FetchedResultsController<MailMessage>) {
        // Kata 11: the contacts are not followed yet.
    }
}
