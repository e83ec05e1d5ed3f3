import Foundation
import KataSupport
import Persistence

/// Lesson 9's ``PlantImporter`` with known mistakes (see `Decoy`).
public final class PlantImporter {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    public func importPlants(named names: [String], pageSize: Int, completion: @escaping ImportCompletion) {
        let viewContext = container.viewContext
        let wasMerging = viewContext.automaticallyMergesChangesFromParent
        // Mistake: the view context keeps merging, and redrawing, page by page.
        if !Decoy.isActive("import-merges-every-page") { viewContext.automaticallyMergesChangesFromParent = false }
        // Mistake: one save for everything.
        let pageSize = Decoy.isActive("import-saves-once") ? max(names.count, 1) : max(pageSize, 1)
        let background = container.newBackgroundContext()
        // Mistake: the pages are saved in the background context, but the caller — the main queue — waits for each
        // (performAndWait), so the screen is frozen for the whole import. Then either everything ends right there,
        // the completion called before importPlants returns, or the ending is handed to the view context's queue,
        // which looks asynchronous and is not.
        if Decoy.isActive("import-synchronous") || Decoy.isActive("import-waits-then-completes-later") {
            var failure: (any Error)?
            background.performAndWait {
                do {
                    for start in stride(from: 0, to: names.count, by: pageSize) {
                        for name in names[start..<min(start + pageSize, names.count)] {
                            Plant(context: background).name = name
                        }
                        try background.save()
                        background.reset()
                    }
                } catch {
                    background.rollback()
                    failure = error
                }
            }
            if Decoy.isActive("import-synchronous") {
                viewContext.reset()
                viewContext.automaticallyMergesChangesFromParent = wasMerging
                return completion(failure)
            }
            let failed = failure
            viewContext.perform {
                viewContext.reset()
                viewContext.automaticallyMergesChangesFromParent = wasMerging
                completion(failed)
            }
            return
        }
        if Decoy.isActive("import-completes-after-the-last-page") || Decoy.isActive("import-failure-completes-twice") {
            background.perform {
                /// Puts the view context back and calls the completion, on the view context's queue.
                func finish(_ error: (any Error)?) {
                    viewContext.perform {
                        viewContext.reset()
                        viewContext.automaticallyMergesChangesFromParent = wasMerging
                        completion(error)
                    }
                }
                do {
                    for start in stride(from: 0, to: names.count, by: pageSize) {
                        for name in names[start..<min(start + pageSize, names.count)] {
                            Plant(context: background).name = name
                        }
                        try background.save()
                        background.reset()
                        // Mistake: the import ends when its last page is saved — and an import of no names has none.
                        if Decoy.isActive("import-completes-after-the-last-page") && start + pageSize >= names.count {
                            finish(nil)
                        }
                    }
                } catch {
                    background.rollback()
                    finish(error)                       // no return: a failed import is reported, then ended again
                }
                if Decoy.isActive("import-failure-completes-twice") { finish(nil) }
            }
            return
        }
        background.perform {
            let failure: (any Error)?
            do {
                if Decoy.isActive("import-saves-full-pages-only") {
                    // Mistake: a save whenever a page is full; the last, shorter page is never saved.
                    for (index, name) in names.enumerated() {
                        Plant(context: background).name = name
                        if (index + 1) % pageSize == 0 {
                            try background.save()
                            background.reset()
                        }
                    }
                } else {
                    for start in stride(from: 0, to: names.count, by: pageSize) {
                        for name in names[start..<min(start + pageSize, names.count)] {
                            Plant(context: background).name = name
                        }
                        try background.save()
                        background.reset()
                    }
                }
                failure = nil
            } catch {
                background.rollback()
                // Mistake: a failed save ends the import right here, on the background queue: no reset, and
                // automatic merging stays off.
                if Decoy.isActive("import-error-skips-cleanup") { return completion(error) }
                // Mistake: the save's error is dropped, and the caller told that every page was saved.
                failure = Decoy.isActive("import-swallows-save-error") ? nil : error
            }
            // Mistake: the view context is reset here, on the background context's queue.
            if Decoy.isActive("import-resets-off-queue") { viewContext.reset() }
            // Mistake: the view context is brought up to date on its queue, but the completion is called here, on the
            // background context's queue, perhaps before the reset.
            if Decoy.isActive("import-completes-off-main") {
                viewContext.perform {
                    viewContext.reset()
                    viewContext.automaticallyMergesChangesFromParent = wasMerging
                }
                return completion(failure)
            }
            viewContext.perform {
                // Mistake: no reset, the view context keeps what it held.
                if !Decoy.isActive("import-without-reset") && !Decoy.isActive("import-resets-off-queue") {
                    viewContext.reset()
                }
                // Mistake: automatic merging stays off after the import.
                if Decoy.isActive("import-restores-merging-on") {
                    // Mistake: automatic merging is switched on at the end, whatever it was before the import.
                    viewContext.automaticallyMergesChangesFromParent = true
                } else if !Decoy.isActive("import-leaves-merging-off") {
                    viewContext.automaticallyMergesChangesFromParent = wasMerging
                }
                completion(failure)
            }
        }
    }
}
