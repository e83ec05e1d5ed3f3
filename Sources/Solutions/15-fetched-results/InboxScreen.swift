import Foundation
import KataSupport
import Persistence

/// The inbox screen of a mail app: sections of rows, on the main queue, kept up to date by a fetched results
/// controller's delegate callbacks alone. After the first ``show(_:)`` it never reads the controller's results
/// again: each batch of changes is collected between `controllerWillChangeContent` and
/// `controllerDidChangeContent`, then applied as a table view applies a batch — deletions at old index paths,
/// insertions at new ones — drawing only the rows that changed.
///
/// `@unchecked Sendable`: it is used on the main queue alone, the view context's, where the context's notifications
/// arrive too.
///
/// Lesson 15, katas 1, 2, 4–6, 8 and 11. Check with `swift run lessons check 15`.
public final class InboxScreen: FetchedResultsControllerDelegate, @unchecked Sendable {
    /// What the screen shows, section by section.
    public private(set) var sections: [InboxSection] = []

    /// The batch being told, applied at `controllerDidChangeContent`.
    private var deletedSections: [Int] = []
    private var insertedSections: [(index: Int, section: InboxSection)] = []
    private var deletedRows: [IndexPath] = []
    private var insertedRows: [(path: IndexPath, row: InboxRow)] = []
    private var redrawnRows: [(path: IndexPath, row: InboxRow)] = []

    /// The controller whose messages' contacts the screen follows, and its observation of the context.
    private weak var contactsOf: FetchedResultsController<MailMessage>?
    private var contactsWatch: (any NSObjectProtocol)?

    public init() {}

    deinit {
        if let contactsWatch { NotificationCenter.default.removeObserver(contactsWatch) }
    }

    /// Kata 1: shows the controller's sections, as `performFetch()` left them, drawing each row once. Called after
    /// each `performFetch()`: it is the one time the screen reads the results.
    public func show(_ fetched: [any FetchedResultsSectionInfo]) throws {
        sections = fetched.map { info in
            let messages = (info.objects ?? []).compactMap { $0 as? MailMessage }
            return InboxSection(name: info.name, indexTitle: info.indexTitle, rows: messages.map(InboxRow.init(drawing:)))
        }
    }

    /// Kata 2: the section index shows the folder's first two letters ("Taxes" and "Travel" get an entry each).
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        sectionName.isEmpty ? nil : String(sectionName.prefix(2)).capitalized
    }

    /// Katas 4–6: a batch begins; nothing on screen changes until it ends.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        deletedSections = []
        insertedSections = []
        deletedRows = []
        insertedRows = []
        redrawnRows = []
    }

    /// Kata 6: a folder appeared (at its new index) or emptied (at its old index).
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                           for type: FetchedResultsChangeType) {
        switch type {
        case .insert:
            insertedSections.append((sectionIndex, InboxSection(name: sectionInfo.name,
                                                                indexTitle: sectionInfo.indexTitle, rows: [])))
        case .delete:
            deletedSections.append(sectionIndex)
        default:
            break
        }
    }

    /// Katas 4–6: a message was inserted, deleted, moved or updated. Its row is drawn from the object handed over,
    /// never read back from the controller at an index path that belongs to the results before the batch.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let message = anObject as? MailMessage else { return }
        switch type {
        case .insert:
            if let newIndexPath { insertedRows.append((newIndexPath, InboxRow(drawing: message))) }
        case .delete:
            if let indexPath { deletedRows.append(indexPath) }
        case .move:
            // A moved message changed too (Core Data sends no separate update): it leaves its old row and is drawn
            // anew at its new one.
            if let indexPath, let newIndexPath {
                deletedRows.append(indexPath)
                insertedRows.append((newIndexPath, InboxRow(drawing: message)))
            }
        case .update:
            if let indexPath { redrawnRows.append((indexPath, InboxRow(drawing: message))) }
        }
    }

    /// Katas 4–6: the batch ends. Applied in a table view's order: redrawn rows and deletions where they were,
    /// from the bottom up so that earlier index paths stay valid; then the new sections and rows where they go,
    /// from the top down.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        for (path, row) in redrawnRows {
            sections[path.section].rows[path.row] = row
        }
        for path in deletedRows.sorted(by: >) {
            sections[path.section].rows.remove(at: path.row)
        }
        for index in deletedSections.sorted(by: >) {
            sections.remove(at: index)
        }
        for (index, section) in insertedSections.sorted(by: { $0.index < $1.index }) {
            sections.insert(section, at: index)
        }
        for (path, row) in insertedRows.sorted(by: { $0.path < $1.path }) {
            sections[path.section].rows.insert(row, at: path.row)
        }
    }

    /// Kata 11: the controller follows messages, and a contact's new name changes none of them: the screen watches
    /// the context itself and draws again the rows of the messages from each contact that changed.
    public func followContacts(of controller: FetchedResultsController<MailMessage>) {
        contactsOf = controller
        contactsWatch = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: controller.managedObjectContext,
            queue: nil
        ) { [weak self] in self?.redrawMessages(ofContactsIn: $0) }
    }

    /// Draws again the rows of the messages from the contacts that `note` reports changed — updated in the context,
    /// or refreshed by a merge.
    private func redrawMessages(ofContactsIn note: Notification) {
        guard let controller = contactsOf else { return }
        let keys = [ManagedObjectContext.NotificationKey.updatedObjects.rawValue,
                    ManagedObjectContext.NotificationKey.refreshedObjects.rawValue]
        let changed = Set(keys.flatMap { (note.userInfo?[$0] as? Set<ManagedObject>) ?? [] }.compactMap { $0 as? MailContact })
        for message in changed.flatMap(\.messages) {
            // Where the controller holds it now: the screen has applied every batch the controller told.
            if let path = controller.indexPath(forObject: message) {
                sections[path.section].rows[path.row] = InboxRow(drawing: message)
            }
        }
    }
}
