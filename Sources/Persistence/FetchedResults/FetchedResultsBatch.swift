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

    /// The objects that moved or changed in place.
    var changedObjects: [ManagedObject] {
        movedRows.map(\.object) + updatedRows.map(\.object)
    }
}
