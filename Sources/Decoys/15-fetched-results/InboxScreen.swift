import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`). The
/// wrong ways of applying a batch check their index paths, so that a mistake shows as wrong rows, not a crash.
public final class InboxScreen: FetchedResultsControllerDelegate, @unchecked Sendable {
    public private(set) var sections: [InboxSection] = []

    private var deletedSections: [Int] = []
    private var insertedSections: [(index: Int, section: InboxSection)] = []
    private var deletedRows: [IndexPath] = []
    private var insertedRows: [(path: IndexPath, row: InboxRow)] = []
    private var redrawnRows: [(path: IndexPath, row: InboxRow)] = []

    private weak var contactsOf: FetchedResultsController<MailMessage>?
    private var contactsWatch: (any NSObjectProtocol)?

    public init() {}

    deinit {
        if let contactsWatch { NotificationCenter.default.removeObserver(contactsWatch) }
    }

    /// The two-letter title the app wants, worked out by the screen (for the decoys that do it in the wrong place).
    private func twoLetters(_ name: String) -> String? {
        name.isEmpty ? nil : String(name.prefix(2)).capitalized
    }

    private func section(from info: any FetchedResultsSectionInfo, rows: [InboxRow]) -> InboxSection {
        var title = info.indexTitle
        if Decoy.isActive("show-own-index-titles") {
            // The screen makes up its own entry, the name's first letter, instead of the controller's.
            title = info.name.first.map { String($0).uppercased() }
        } else if Decoy.isActive("index-titles-in-screen-only") {
            title = twoLetters(info.name)
        }
        return InboxSection(name: info.name, indexTitle: title, rows: rows)
    }

    public func show(_ fetched: [any FetchedResultsSectionInfo]) throws {
        sections = fetched.map { info in
            let messages = (info.objects ?? []).compactMap { $0 as? MailMessage }
            return section(from: info, rows: messages.map(InboxRow.init(drawing:)))
        }
    }

    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        // The controller's index keeps Core Data's default; only the screen's own sections get two letters.
        if Decoy.isActive("index-titles-in-screen-only") { return controller.sectionIndexTitle(forSectionName: sectionName) }
        return twoLetters(sectionName)
    }

    public func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        deletedSections = []
        insertedSections = []
        deletedRows = []
        insertedRows = []
        redrawnRows = []
    }

    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                           for type: FetchedResultsChangeType) {
        // Sections are never inserted or deleted: rows go into whatever section is at their index.
        if Decoy.isActive("screen-ignores-sections") { return }
        let newSection = section(from: sectionInfo, rows: [])
        if Decoy.isActive("apply-as-they-arrive") {
            // Applied at once: a section inserted at its new index, then one deleted at its old index, in the same
            // list — the two kinds of index no longer mean the same thing.
            if type == .insert { sections.insert(newSection, at: min(sectionIndex, sections.count)) }
            if type == .delete, sections.indices.contains(sectionIndex) { sections.remove(at: sectionIndex) }
            return
        }
        switch type {
        case .insert: insertedSections.append((sectionIndex, newSection))
        case .delete: deletedSections.append(sectionIndex)
        default: break
        }
    }

    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard var message = anObject as? MailMessage else { return }
        // A message deleted in another context and merged here has no context and no values left; skipping it to
        // stay clear of reading them leaves its row on screen.
        if Decoy.isActive("deleted-without-context-skipped"), message.managedObjectContext == nil { return }
        if Decoy.isActive("apply-as-they-arrive") {
            if let indexPath, type == .delete || type == .move { remove(at: indexPath) }
            if let newIndexPath, type == .insert || type == .move { insert(InboxRow(drawing: message), at: newIndexPath) }
            if let indexPath, type == .update, contains(indexPath) {
                sections[indexPath.section].rows[indexPath.row] = InboxRow(drawing: message)
            }
            return
        }
        switch type {
        case .insert:
            if let newIndexPath { insertedRows.append((newIndexPath, InboxRow(drawing: message))) }
        case .delete:
            if let indexPath { deletedRows.append(indexPath) }
        case .move:
            if Decoy.isActive("move-redrawn-in-place"), let indexPath {
                // A move taken for an update: the row is redrawn where it was and never goes to its new place.
                redrawnRows.append((indexPath, InboxRow(drawing: message)))
                return
            }
            if Decoy.isActive("move-keeps-old-row"), let indexPath, let newIndexPath, contains(indexPath) {
                // The row as it was drawn, carried to its new place: no drawing saved, but a message that moved
                // and changed in one batch still shows what it was.
                deletedRows.append(indexPath)
                insertedRows.append((newIndexPath, sections[indexPath.section].rows[indexPath.row]))
                return
            }
            if let indexPath, let newIndexPath {
                deletedRows.append(indexPath)
                insertedRows.append((newIndexPath, InboxRow(drawing: message)))
            }
        case .update:
            guard let indexPath else { return }
            if Decoy.isActive("update-at-new-index-path"), let newIndexPath {
                // The place after the batch, used in the list as it still is: another row is overwritten when rows
                // above went or came in the same batch.
                redrawnRows.append((newIndexPath, InboxRow(drawing: message)))
                return
            }
            if Decoy.isActive("update-at-old-index-path"), let sections = controller.sections,
               sections.indices.contains(indexPath.section),
               indexPath.row < sections[indexPath.section].numberOfObjects,
               let there = controller.object(at: indexPath) as? MailMessage {
                // Apple's old sample: the object read at the old index path — from results that already include the
                // batch, where rows before it were deleted or inserted.
                message = there
            }
            redrawnRows.append((indexPath, InboxRow(drawing: message)))
        }
    }

    public func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        if Decoy.isActive("apply-as-they-arrive") { return }
        if Decoy.isActive("screen-refetches-everything") {
            // The right rows, the wrong way: fetch everything again and draw every row, whatever changed.
            try? controller.performFetch()
            try? show(controller.sections ?? [])
            return
        }
        if Decoy.isActive("screen-rebuilds-from-results") {
            // The right rows by the wrong mechanism: the rows the callbacks drew are kept by message, every other
            // row is reused, and the list is laid out again from the controller's sections — no index path used.
            var rows: [ObjectIdentifier: InboxRow] = [:]
            for row in sections.flatMap(\.rows) { rows[ObjectIdentifier(row.message)] = row }
            for (_, row) in redrawnRows + insertedRows { rows[ObjectIdentifier(row.message)] = row }
            sections = (controller.sections ?? []).map { info in
                let messages = (info.objects ?? []).compactMap { $0 as? MailMessage }
                return section(from: info, rows: messages.map { rows[ObjectIdentifier($0)] ?? InboxRow(drawing: $0) })
            }
            return
        }
        for (path, row) in redrawnRows where contains(path) {
            sections[path.section].rows[path.row] = row
        }
        if Decoy.isActive("inserts-before-deletes") {
            // New sections and rows first, at their new places; then the deletions, at indexes that meant the
            // list before the batch.
            insertNew()
            removeOld()
            return
        }
        removeOld()
        insertNew()
    }

    private func removeOld() {
        for path in deletedRows.sorted(by: >) { remove(at: path) }
        if Decoy.isActive("sections-inserted-before-deleted") {
            // New sections go in before the emptied ones go: a deletion's index, meant for the list before the
            // batch, then hits a section that just arrived.
            insertNewSections()
        }
        for index in deletedSections.sorted(by: >) where sections.indices.contains(index) { sections.remove(at: index) }
    }

    private func insertNewSections() {
        for (index, section) in insertedSections.sorted(by: { $0.index < $1.index }) {
            sections.insert(section, at: min(index, sections.count))
        }
        insertedSections = []
    }

    private func insertNew() {
        insertNewSections()
        for (path, row) in insertedRows.sorted(by: { $0.path < $1.path }) { insert(row, at: path) }
    }

    private func contains(_ path: IndexPath) -> Bool {
        sections.indices.contains(path.section) && sections[path.section].rows.indices.contains(path.row)
    }

    private func remove(at path: IndexPath) {
        if contains(path) { sections[path.section].rows.remove(at: path.row) }
    }

    /// Inserts where asked, or as near as the wrong list allows (a section that is not there: a new unnamed one).
    private func insert(_ row: InboxRow, at path: IndexPath) {
        while sections.count <= path.section { sections.append(InboxSection(name: "", indexTitle: nil, rows: [])) }
        let rows = sections[path.section].rows
        sections[path.section].rows.insert(row, at: min(path.row, rows.count))
    }

    public func followContacts(of controller: FetchedResultsController<MailMessage>) {
        // Mistake: the controller is trusted to tell of every change a row shows; a contact's is never told.
        if Decoy.isActive("contacts-not-followed") { return }
        contactsOf = controller
        if Decoy.isActive("contacts-observed-everywhere") {
            // Every context's did-change, the sync's included, on whatever queue posts it; the rows of a changed
            // contact are found on screen by the contact's object ID.
            contactsWatch = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didChangeObjectsNotification, object: nil, queue: nil
            ) { [weak self] in self?.redrawRows(ofContactsIn: $0) }
            return
        }
        if Decoy.isActive("contacts-observer-holds-screen") {
            // The block holds the screen, and the notification center holds the block: the screen never goes.
            contactsWatch = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didChangeObjectsNotification, object: controller.managedObjectContext,
                queue: nil
            ) { self.redrawMessages(ofContactsIn: $0) }
            return
        }
        contactsWatch = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: controller.managedObjectContext,
            queue: nil
        ) { [weak self] in self?.redrawMessages(ofContactsIn: $0) }
    }

    /// For "contacts-observed-everywhere": the rows on screen whose message's contact has a changed contact's ID.
    private func redrawRows(ofContactsIn note: Notification) {
        let keys = [ManagedObjectContext.NotificationKey.updatedObjects.rawValue,
                    ManagedObjectContext.NotificationKey.refreshedObjects.rawValue]
        let changed = Set(keys.flatMap { (note.userInfo?[$0] as? Set<ManagedObject>) ?? [] }
            .compactMap { ($0 as? MailContact)?.objectID })
        guard !changed.isEmpty else { return }
        for (index, section) in sections.enumerated() {
            for (row, shown) in section.rows.enumerated()
            where shown.message.contact.map({ changed.contains($0.objectID) }) == true {
                sections[index].rows[row] = InboxRow(drawing: shown.message)
            }
        }
    }

    private func redrawMessages(ofContactsIn note: Notification) {
        guard let controller = contactsOf else { return }
        var keys = [ManagedObjectContext.NotificationKey.updatedObjects.rawValue]
        // Mistake (contacts-updated-key-only): a contact renamed by the sync and merged is not looked for where a
        // merge reports it.
        if !Decoy.isActive("contacts-updated-key-only") { keys += [ManagedObjectContext.NotificationKey.refreshedObjects.rawValue] }
        let changed = Set(keys.flatMap { (note.userInfo?[$0] as? Set<ManagedObject>) ?? [] }.compactMap { $0 as? MailContact })
        guard !changed.isEmpty else { return }
        if Decoy.isActive("contacts-redraw-every-row") {
            // Mistake: the right rows the slow way — every row drawn again for one contact's new name.
            for (index, section) in sections.enumerated() {
                sections[index].rows = section.rows.map { InboxRow(drawing: $0.message) }
            }
            return
        }
        for message in changed.flatMap(\.messages) {
            if let path = controller.indexPath(forObject: message), contains(path) {
                sections[path.section].rows[path.row] = InboxRow(drawing: message)
            }
        }
    }
}
