import Foundation
import KataSupport
import Persistence

/// The screen that edits a post, with a context of its own (document 002's second rule). Choosing the author opens
/// another screen — a list of users fetched in *that* screen's context — which hands back the user it picked.
///
/// Lesson 11, kata 3. Check with `swift run lessons check 11`.
public final class PostEditor {
    /// The editor's context: the post and everything assigned to it must belong here.
    public let context: ManagedObjectContext
    /// The post being edited, an object of ``context``.
    public let post: Post

    public init(context: ManagedObjectContext, post: Post) {
        self.context = context
        self.post = post
    }

    /// Makes `user` — picked on another screen, so an object of another context — the post's author. A user the
    /// picker has not saved yet (a temporary `objectID`) cannot be found from here: it throws and leaves the post
    /// as it was.
    public func choose(_ user: User) throws {
        throw KataNotDone(lesson: 11)
    }
}
