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
        } else if Decoy.isActive("choose-fetches-by-name") {
            // The editor's own copy, but found by what the user is called: another user of the same name may come
            // first.
            let sameName: FetchRequest<User> = User.fetchRequest()
            sameName.predicate = FetchPredicate(format: "name == %@", user.name)
            post.author = try context.fetch(sameName).first
        } else if Decoy.isActive("choose-saves-at-once") {
            // The right copy, and then a save "so the choice is not lost": the half-done edit reaches the store.
            post.author = try context.existingObject(with: user.objectID) as? User
            try context.save()
        } else if Decoy.isActive("choose-object-with") {
            // The editor's own copy by ID, without a check: right for a saved user, a stand-in for an unsaved one.
            post.author = context.object(with: user.objectID) as? User
        } else if Decoy.isActive("choose-saves-picker") {
            // An unsaved user is saved "to get a real ID" — by saving the picker's context, the picker's work and all.
            if user.objectID.isTemporaryID { try user.managedObjectContext?.save() }
            post.author = try context.existingObject(with: user.objectID) as? User
        } else if Decoy.isActive("choose-uses-registered-object") {
            post.author = context.registeredObject(for: user.objectID) as? User
        } else {
            post.author = try context.existingObject(with: user.objectID) as? User
        }
    }
}
