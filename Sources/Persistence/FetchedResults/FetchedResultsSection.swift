/// The sections a ``FetchedResultsController`` hands out. A section is replaced, not changed, when its objects
/// change, so a batch of changes can be undone by going back to the sections before it (see
/// `FetchedResultsTracker.deliver(_:replacing:)`).
final class FetchedResultsSection: FetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    let rows: [ManagedObject]

    init(name: String, indexTitle: String?, rows: [ManagedObject]) {
        self.name = name
        self.indexTitle = indexTitle
        self.rows = rows
    }

    var numberOfObjects: Int { rows.count }
    var objects: [Any]? { rows }

    /// The same section with other objects.
    func with(rows: [ManagedObject]) -> FetchedResultsSection {
        FetchedResultsSection(name: name, indexTitle: indexTitle, rows: rows)
    }
}
