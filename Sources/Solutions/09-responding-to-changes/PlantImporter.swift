import Foundation
import KataSupport
import Persistence

/// Imports many plants in pages, in a background context, without making the view context merge every page.
public final class PlantImporter {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    // region: import
    /// Inserts a plant for each name, saving every `pageSize` plants in a background context. While it runs the
    /// view context merges nothing; at the end it is reset once, its automatic merging is restored, and
    /// `completion` is called on the main queue. Call it on the main queue.
    public func importPlants(named names: [String], pageSize: Int, completion: @escaping ImportCompletion) {
        let viewContext = container.viewContext
        let wasMerging = viewContext.automaticallyMergesChangesFromParent
        viewContext.automaticallyMergesChangesFromParent = false      // no merge, no redraw, per page
        let background = container.newBackgroundContext()
        background.perform {
            let failure: (any Error)?
            do {
                for start in stride(from: 0, to: names.count, by: max(pageSize, 1)) {
                    for name in names[start..<min(start + max(pageSize, 1), names.count)] {
                        Plant(context: background).name = name
                    }
                    try background.save()
                    background.reset()                                  // the saved page leaves memory
                }
                failure = nil
            } catch {
                background.rollback()
                failure = error
            }
            viewContext.perform {
                viewContext.reset()                                     // once: fetch again from here
                viewContext.automaticallyMergesChangesFromParent = wasMerging
                completion(failure)
            }
        }
    }
    // endregion: import
}
