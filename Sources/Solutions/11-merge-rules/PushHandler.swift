import Foundation
import KataSupport
import Persistence

/// Applies changes the server pushes to posts — in the background, as a push notification's handler would, while
/// the UI may be editing the very same post on the main context.
public struct PushHandler: Sendable {
    public let storage: BlogStorage

    public init(storage: BlogStorage) {
        self.storage = storage
    }

    // region: apply
    /// Sets the values `update` carries on the post with the ID `postID` and saves them to the store, in a
    /// background task; then calls `completion` on the main queue with what the save reported.
    public func apply(_ update: PostUpdate, toPostWithID postID: ManagedObjectID,
                      completion: @escaping @Sendable (SaveStatus) -> Void) {
        let storage = self.storage
        storage.backgroundTask { context in
            let status: SaveStatus
            do {
                // The ID crosses queues; the task's context looks up its own copy of the post.
                guard let post = try context.existingObject(with: postID) as? Post else { throw NotAPost(postID) }
                if let title = update.title { post.title = title }
                if let likes = update.likes { post.likes = likes }
                status = storage.save(in: context)
            } catch {
                status = .failed(error)
            }
            DispatchQueue.main.async { completion(status) }
        }
    }
    // endregion: apply
}
