import Foundation
import KataSupport
import Persistence

/// The reference `PostScreen` with known mistakes behind `Decoy.isActive` (see `lessons/manifest.json`).
public final class PostScreen {
    public let context: ManagedObjectContext
    public let post: Post
    public let fix: ConflictFix

    public init(container: PersistentContainer, postID: ManagedObjectID, fix: ConflictFix) throws {
        context = container.viewContext
        self.fix = fix
        switch fix {
        case .none, .refreshBeforeSaving:
            break
        case .automaticMerging:
            if Decoy.isActive("automatic-merging-by-policy") {
                context.mergePolicy = .mergeByPropertyObjectTrump
            } else {
                context.automaticallyMergesChangesFromParent = true
            }
        case .objectTrump:
            if Decoy.isActive("store-trump-instead-of-object-trump") {
                context.mergePolicy = .mergeByPropertyStoreTrump
            } else if Decoy.isActive("overwrite-instead-of-object-trump") {
                context.mergePolicy = .overwrite
            } else {
                context.mergePolicy = .mergeByPropertyObjectTrump
            }
        }
        guard let post = try context.existingObject(with: postID) as? Post else { throw NotAPost(postID) }
        self.post = post
        if fix == .refreshBeforeSaving && Decoy.isActive("refresh-when-opening") {
            context.refresh(post, mergeChanges: true)
        }
    }

    public func save() throws {
        guard context.hasChanges else { return }
        if fix == .refreshBeforeSaving && !Decoy.isActive("refresh-when-opening") {
            context.refresh(post, mergeChanges: !Decoy.isActive("refresh-discarding-changes"))
        }
        if Decoy.isActive("screen-swallows-conflict") {
            try? context.save()
            return
        }
        try context.save()
    }
}
