/// What happened to a section or an object of a ``FetchedResultsController``'s results (Core Data's
/// `NSFetchedResultsChangeType`, with its raw values).
public enum FetchedResultsChangeType: UInt, Sendable {
    /// An object (or section) entered the results: reported at its new index path (section index).
    case insert = 1
    /// An object (or section) left the results: reported at its old index path (section index).
    case delete = 2
    /// An object changed so that it sorts elsewhere, or belongs to another section: reported from its old index
    /// path to its new one. The object changed too, and no separate update is reported.
    case move = 3
    /// An object changed and keeps its place among the others: reported at its old index path, with its new one
    /// as `newIndexPath` (the same row, once the batch's deletions and insertions are applied).
    case update = 4
}
