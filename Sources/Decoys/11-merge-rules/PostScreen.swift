import Foundation
import KataSupport
import Persistence

/// The reference `PostScreen` with known mistakes behind `Decoy.isActive` (see `lessons/manifest.json`).
public final class PostScreen {
    public let context: ManagedObjectContext
    public let post: Post
    public let fix: ConflictFix
    /// The observer of `automatic-merging-by-hand`.
    private var handMerge: (any NSObjectProtocol)?

    public init(container: PersistentContainer, postID: ManagedObjectID, fix: ConflictFix) throws {
        context = container.viewContext
        self.fix = fix
        switch fix {
        case .none:
            break
        case .refreshBeforeSaving:
            if Decoy.isActive("refresh-by-automatic-merging") {
                // The push is merged as it lands: the end state is right, and save() never refreshes anything.
                context.automaticallyMergesChangesFromParent = true
            } else if Decoy.isActive("refresh-by-policy") {
                // A merge policy settles the conflict: the end state is right, but the context's policy changed.
                context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
            }
        case .automaticMerging:
            if Decoy.isActive("automatic-merging-by-policy") {
                context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
            } else if Decoy.isActive("automatic-merging-by-hand") {
                // Set up below, once the post is found.
            } else {
                context.automaticallyMergesChangesFromParent = true
            }
        case .objectTrump:
            if Decoy.isActive("object-trump-by-automatic-merging") {
                // No policy: the push lands before the save, so the save meets no conflict for a policy to settle.
                context.automaticallyMergesChangesFromParent = true
            } else if Decoy.isActive("object-trump-by-refresh") {
                // No policy: save() refreshes the post first, so only the screen's own save() avoids the conflict.
            } else if Decoy.isActive("store-trump-instead-of-object-trump") {
                context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
            } else if Decoy.isActive("overwrite-instead-of-object-trump") {
                context.mergePolicy = MergePolicy.overwrite
            } else {
                context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
            }
        }
        guard let post = try context.existingObject(with: postID) as? Post else { throw NotAPost(postID) }
        self.post = post
        if fix == .automaticMerging && Decoy.isActive("automatic-merging-by-hand") {
            // The store's likes copied into the screen's post by hand after every other save: the screen shows
            // them, but the post keeps its old snapshot and version, so its save still conflicts.
            let coordinator = container.persistentStoreCoordinator
            let context = self.context
            nonisolated(unsafe) let shown = post
            handMerge = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectIDsNotification, object: nil, queue: nil
            ) { note in
                guard let saver = note.object as? ManagedObjectContext, saver !== context,
                      saver.persistentStoreCoordinator === coordinator else { return }
                let reader = container.newBackgroundContext()
                let likes = reader.performAndWait { (try? reader.existingObject(with: postID) as? Post)?.likes }
                context.perform { if let likes { shown.likes = likes } }
            }
        }
        if fix == .refreshBeforeSaving && Decoy.isActive("refresh-when-opening") {
            context.refresh(post, mergeChanges: true)
        }
    }

    deinit {
        if let handMerge { NotificationCenter.default.removeObserver(handMerge) }
    }

    public func save() throws {
        guard context.hasChanges else { return }
        let refreshes = fix == .refreshBeforeSaving && !Decoy.isActive("refresh-when-opening")
            && !Decoy.isActive("refresh-by-policy-for-the-save")
            && !Decoy.isActive("refresh-by-automatic-merging") && !Decoy.isActive("refresh-by-policy")
        if refreshes || (fix == .objectTrump && Decoy.isActive("object-trump-by-refresh")) {
            context.refresh(post, mergeChanges: !Decoy.isActive("refresh-discarding-changes"))
        }
        // The mistake: a trumping policy only for this save, put back afterwards; no refresh.
        if fix == .refreshBeforeSaving && Decoy.isActive("refresh-by-policy-for-the-save") {
            let kept = context.mergePolicy
            context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
            defer { context.mergePolicy = kept }
            return try context.save()
        }
        if Decoy.isActive("screen-swallows-conflict") {
            try? context.save()
            return
        }
        try context.save()
    }
}
