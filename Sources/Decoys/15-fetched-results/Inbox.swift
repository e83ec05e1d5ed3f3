import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class Inbox {
    public let controller: FetchedResultsController<MailMessage>
    public let screen: InboxScreen
    private var saveObserver: (any NSObjectProtocol)?

    public init(container: PersistentContainer) throws {
        // A screen's controller on a background context: its objects belong to another queue, and the user's changes
        // in the view context never reach it.
        let context = Decoy.isActive("inbox-on-background-context")
            ? container.newBackgroundContext() : container.viewContext
        if Decoy.isActive("merges-every-save-in-process") {
            // A hand-made observer with object: nil: every context's save in the process is merged — other stores'
            // and the view context's own included.
            let target = context
            saveObserver = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil
            ) { note in
                nonisolated(unsafe) let note = note
                target.perform { target.mergeChanges(fromContextDidSave: note) }
            }
        } else if !Decoy.isActive("inbox-without-merging") {
            context.automaticallyMergesChangesFromParent = true
        }
        let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
        if Decoy.isActive("inbox-sorted-by-date-first") {
            // Newest first across the whole inbox, then by folder: a folder's messages are no longer together.
            request.sortDescriptors = [
                FetchSortDescriptor(key: "received", ascending: false),
                FetchSortDescriptor(key: "folder", ascending: true),
            ]
        } else if !Decoy.isActive("inbox-without-sort-descriptors") {
            request.sortDescriptors = [
                FetchSortDescriptor(key: "folder", ascending: true),
                FetchSortDescriptor(key: "received", ascending: false),
            ]
        }
        // One section for the whole inbox: the folders are left to the sort alone.
        let sectionKey: String? = Decoy.isActive("inbox-without-sections") ? nil : "folder"
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: sectionKey,
                                              // Mistake: a cache name for a request whose predicate changes, and no
                                              // deleteCache(withName:) before it does.
                                              cacheName: Decoy.isActive("cache-for-changing-request") ? "Inbox" : nil)
        screen = InboxScreen()
        controller.delegate = screen
        if !Decoy.isActive("inbox-without-perform-fetch") {
            try controller.performFetch()
        }
        try screen.show(controller.sections ?? [])
    }

    public func showUnreadOnly(_ unreadOnly: Bool) throws {
        if Decoy.isActive("unread-filtered-in-swift") {
            // The read mail taken out in Swift from what the controller fetched: the request keeps every message, so
            // the controller holds them all, and its next callbacks count rows the screen does not show.
            try screen.show((controller.sections ?? []).compactMap { UnreadPart(of: $0, unreadOnly: unreadOnly) })
            return
        }
        // Off by one word: the read mail instead of the unread.
        let unreadFormat = Decoy.isActive("unread-predicate-inverted") ? "unread == NO" : "unread == YES"
        controller.fetchRequest.predicate = unreadOnly ? FetchPredicate(format: unreadFormat) : nil
        // The request changes, and the rows stay as they were fetched.
        if Decoy.isActive("predicate-without-new-fetch") {
            try screen.show(controller.sections ?? [])
            return
        }
        try controller.performFetch()
        // The controller has the new results; the screen, told nothing by a fetch, still shows the old ones.
        if Decoy.isActive("refetch-without-redraw") { return }
        try screen.show(controller.sections ?? [])
    }

    /// A section of the controller's with the read mail filtered out in Swift (for `unread-filtered-in-swift`); nil
    /// when nothing is left of it.
    private final class UnreadPart: FetchedResultsSectionInfo {
        let name: String
        let indexTitle: String?
        let objects: [Any]?
        var numberOfObjects: Int { objects?.count ?? 0 }

        init?(of section: any FetchedResultsSectionInfo, unreadOnly: Bool) {
            let kept = (section.objects ?? []).filter { !unreadOnly || ($0 as? MailMessage)?.unread == true }
            guard !kept.isEmpty else { return nil }
            name = section.name
            indexTitle = section.indexTitle
            objects = kept
        }
    }
}
