import Foundation
import KataSupport
import Persistence

/// An edit screen for one post on the main context, while pushes may change the same post in the background
/// (document 002, rule 3.1). ``fix`` says how it avoids "Could not merge changes." (133020) when it saves.
///
/// Lesson 11, katas 4–7. Check with `swift run lessons check 11`.
public final class PostScreen {
    /// The container's `viewContext`, where the screen edits.
    public let context: ManagedObjectContext
    /// The post on the screen, an object of ``context``.
    public let post: Post
    public let fix: ConflictFix

    /// Opens the post with the ID `postID` in the container's `viewContext`, set up for `fix`.
    public init(container: PersistentContainer, postID: ManagedObjectID, fix: ConflictFix) throws {
        throw KataNotDone(lesson: 11)
    }

    /// Saves the screen's edit. Errors reach the caller (a conflict, under ``ConflictFix/none``, is error 133020);
    /// the edit stays in the context, so the screen can still show it.
    public func save() throws {
        throw KataNotDone(lesson: 11)
    }
}
