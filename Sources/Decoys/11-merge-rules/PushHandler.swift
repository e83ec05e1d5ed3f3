import Foundation
import KataSupport
import Persistence

/// The reference `PushHandler` with known mistakes behind `Decoy.isActive` (see `lessons/manifest.json`).
public struct PushHandler: Sendable {
    public let storage: BlogStorage

    public init(storage: BlogStorage) {
        self.storage = storage
    }

    public func apply(_ update: PostUpdate, toPostWithID postID: ManagedObjectID,
                      completion: @escaping @Sendable (SaveStatus) -> Void) {
        let storage = self.storage
        storage.backgroundTask { context in
            // The mistake: the post is looked up in the viewContext, from the background task's queue.
            let target = Decoy.isActive("push-in-view-context") ? storage.viewContext : context
            let status: SaveStatus
            // The mistake: a post that cannot be found ends the task quietly, and the completion is never called.
            if Decoy.isActive("push-deleted-post-returns") {
                guard (try? target.existingObject(with: postID)) is Post else { return }
            }
            do {
                guard let post = try target.existingObject(with: postID) as? Post else { throw NotAPost(postID) }
                if Decoy.isActive("push-writes-every-field") {
                    // Every field copied, with a default for what the push did not carry.
                    post.title = update.title ?? ""
                    post.likes = update.likes ?? 0
                } else {
                    if let title = update.title { post.title = title }
                    if let likes = update.likes { post.likes = likes }
                }
                status = Decoy.isActive("push-without-save") ? .saved : storage.save(in: target)
            } catch {
                status = .failed(error)
            }
            if Decoy.isActive("push-completes-off-main") {
                completion(status)
            } else if Decoy.isActive("push-completes-twice") {
                // Once when the save is done, and once more "to be sure": the UI hears of one push twice.
                DispatchQueue.main.async { completion(status) }
                DispatchQueue.main.async { completion(status) }
            } else {
                DispatchQueue.main.async { completion(status) }
            }
        }
    }
}
