import Foundation
import KataSupport
import Persistence

/// An edit screen for one post on the main context, while pushes may change the same post in the background
/// (document 002, rule 3.1). ``fix`` says how it avoids "Could not merge changes." (133020) when it saves.
public final class PostScreen {
    /// The container's `viewContext`, where the screen edits.
    public let context: ManagedObjectContext
    /// The post on the screen, an object of ``context``.
    public let post: Post
    public let fix: ConflictFix

    // region: screen-init
    /// Opens the post with the ID `postID` in the container's `viewContext`, set up for `fix`.
    public init(container: PersistentContainer, postID: ManagedObjectID, fix: ConflictFix) throws {
        context = container.viewContext
        self.fix = fix
        switch fix {
        case .none, .refreshBeforeSaving:
            break
        case .automaticMerging:
            // Solution 1: every save that reaches the store is merged into the viewContext as it happens.
            context.automaticallyMergesChangesFromParent = true
        case .objectTrump:
            // Solution 2: at the save, the screen's changes win, property by property.
            context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        }
        guard let post = try context.existingObject(with: postID) as? Post else { throw NotAPost(postID) }
        self.post = post
    }
    // endregion: screen-init

    // region: screen-save
    /// Saves the screen's edit. Errors reach the caller (a conflict, under ``ConflictFix/none``, is error 133020);
    /// the edit stays in the context, so the screen can still show it.
    public func save() throws {
        guard context.hasChanges else { return }
        if fix == .refreshBeforeSaving {
            // Solution 3: take the store's current values for the post, keeping the screen's own changes on top.
            context.refresh(post, mergeChanges: true)
        }
        try context.save()
    }
    // endregion: screen-save
}
