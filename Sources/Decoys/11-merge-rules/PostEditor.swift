import Foundation
import KataSupport
import Persistence

/// The reference `PostEditor` with known mistakes behind `Decoy.isActive` (see `lessons/manifest.json`).
public final class PostEditor {
    public let context: ManagedObjectContext
    public let post: Post

    public init(context: ManagedObjectContext, post: Post) {
        self.context = context
        self.post = post
    }

    public func choose(_ user: User) throws {
        if Decoy.isActive("choose-assigns-picked-user") {
            post.author = user
        } else if Decoy.isActive("choose-uses-registered-object") {
            post.author = context.registeredObject(for: user.objectID) as? User
        } else {
            post.author = try context.existingObject(with: user.objectID) as? User
        }
    }
}
