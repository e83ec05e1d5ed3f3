import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class Inbox {
    public let controller: FetchedResultsController<MailMessage>
    public let screen: InboxScreen

    public init(container: PersistentContainer) throws {
        // A screen's controller on a background context: its objects belong to another queue, and the user's changes
        // in the view context never reach it.
        let context = Decoy.isActive("inbox-on-background-context")
            ? container.newBackgroundContext() : container.viewContext
        if !Decoy.isActive("inbox-without-merging") {
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
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: "folder", cacheName: nil)
        screen = InboxScreen()
        controller.delegate = screen
        if !Decoy.isActive("inbox-without-perform-fetch") {
            try controller.performFetch()
        }
        try screen.show(controller.sections ?? [])
    }

    public func showUnreadOnly(_ unreadOnly: Bool) throws {
        controller.fetchRequest.predicate = unreadOnly ? FetchPredicate(format: "unread == YES") : nil
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
}
