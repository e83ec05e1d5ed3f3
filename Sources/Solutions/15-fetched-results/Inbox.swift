import Foundation
import KataSupport
import Persistence

/// The mail app's inbox: a fetched results controller over the messages of the view context, in sections by folder,
/// telling its ``screen`` every change — the user's own, and the mail sync's saves merged from the background.
///
/// Lesson 15, katas 3, 7 and 9. Check with `swift run lessons check 15`.
public final class Inbox {
    /// The controller that follows the view context's messages.
    public let controller: FetchedResultsController<MailMessage>
    /// The screen it tells, the controller's delegate.
    public let screen: InboxScreen

    /// Kata 3 (and 7): the inbox of `container`'s view context — folders in alphabetical order, the newest message
    /// first in each — fetched and on screen; the sync's saves, made in background contexts, reach it.
    public init(container: PersistentContainer) throws {
        let viewContext = container.viewContext
        // Saves of the sync's background contexts are merged into the view context, and so reach the controller.
        viewContext.automaticallyMergesChangesFromParent = true
        let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
        // The section key sorts first, so each folder's messages come together.
        request.sortDescriptors = [
            FetchSortDescriptor(key: "folder", ascending: true),
            FetchSortDescriptor(key: "received", ascending: false),
        ]
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: viewContext,
                                              sectionNameKeyPath: "folder", cacheName: nil)
        screen = InboxScreen()
        controller.delegate = screen
        try controller.performFetch()
        try screen.show(controller.sections ?? [])
    }

    /// Kata 9: shows only the unread messages, or every message again.
    public func showUnreadOnly(_ unreadOnly: Bool) throws {
        controller.fetchRequest.predicate = unreadOnly ? FetchPredicate(format: "unread == YES") : nil
        // A changed request takes effect at the next fetch; a row-by-row delegate hears nothing of a fetch, so the
        // screen shows the new results itself.
        try controller.performFetch()
        try screen.show(controller.sections ?? [])
    }
}
