import Foundation

/// One batch of changes to a fetched results controller's results, worked out before anyone is told: the sections
/// after it, and what a table must do to get there, in UIKit's terms (old index paths for what goes, new ones for
/// what comes).
struct FetchedResultsBatch {
    /// The sections after the batch.
    var sections: [FetchedResultsSection]
    var insertedSections: [(section: FetchedResultsSection, index: Int)] = []
    var deletedSections: [(section: FetchedResultsSection, index: Int)] = []
    var deletedRows: [(object: ManagedObject, indexPath: IndexPath)] = []
    var insertedRows: [(object: ManagedObject, newIndexPath: IndexPath)] = []
    var movedRows: [(object: ManagedObject, indexPath: IndexPath, newIndexPath: IndexPath)] = []
    var updatedRows: [(object: ManagedObject, indexPath: IndexPath, newIndexPath: IndexPath)] = []

    init(sections: [FetchedResultsSection]) {
        self.sections = sections
    }

    var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && movedRows.isEmpty && updatedRows.isEmpty
    }

    /// Whether any object was inserted, deleted, moved or updated (the delegate's object method is called).
    var hasRowChanges: Bool {
        !(deletedRows.isEmpty && insertedRows.isEmpty && movedRows.isEmpty && updatedRows.isEmpty)
    }
}
