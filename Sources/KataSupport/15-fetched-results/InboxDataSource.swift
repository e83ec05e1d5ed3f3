import Foundation
import Persistence

/// The rows of a list fed by snapshots: the Linux stand-in for a table's diffable data source
/// (`UITableViewDiffableDataSource<String, NSManagedObjectID>` on Apple's platforms), which lesson 15's
/// ``InboxSection``s show.
///
/// ``apply(_:)`` behaves as UIKit's does with the items it already shows: an item whose identifier stays keeps its
/// row as it was drawn — whatever happened to its message since — unless the snapshot marks it with
/// `reconfigureItems(_:)` or `reloadItems(_:)`; only new and marked items are drawn, through the cell provider. So a
/// message that changed but kept its ID is drawn again only if someone marks it.
public final class InboxDataSource {
    /// Draws the row of the message with an ID (nil when there is no such message): a table's cell provider.
    public typealias CellProvider = (ManagedObjectID) -> InboxRow?

    private let cellProvider: CellProvider
    /// The snapshot last applied, without its marks (UIKit's `snapshot()`): what the list shows, by ID.
    public private(set) var snapshot = DiffableDataSourceSnapshotReference()
    /// The rows on screen, section by section (index titles are not part of a snapshot: nil).
    public private(set) var sections: [InboxSection] = []

    /// A data source that draws new and marked rows with `cellProvider`.
    public init(cellProvider: @escaping CellProvider) {
        self.cellProvider = cellProvider
    }

    /// The row shown for the item `id`, as it was drawn; nil when the list does not show it.
    public func row(for id: ManagedObjectID) -> InboxRow? {
        rowsByID[id]
    }

    /// Shows `snapshot`'s sections and items: rows already shown stay as drawn, new items and the items the snapshot
    /// marks (reloaded or reconfigured) are drawn.
    public func apply(_ snapshot: DiffableDataSourceSnapshotReference) {
        let marked = Set(snapshot.reloadedItemIdentifiers).union(snapshot.reconfiguredItemIdentifiers)
        var shown: [ManagedObjectID: InboxRow] = [:]
        sections = snapshot.sectionIdentifiers.map { name in
            let rows = snapshot.itemIdentifiers(inSection: name).compactMap { id -> InboxRow? in
                let row = marked.contains(id) ? cellProvider(id) : rowsByID[id] ?? cellProvider(id)
                shown[id] = row
                return row
            }
            return InboxSection(name: name, indexTitle: nil, rows: rows)
        }
        rowsByID = shown
        var unmarked = DiffableDataSourceSnapshotReference()
        for name in snapshot.sectionIdentifiers {
            unmarked.appendSections([name])
            unmarked.appendItems(snapshot.itemIdentifiers(inSection: name), toSection: name)
        }
        self.snapshot = unmarked
    }

    private var rowsByID: [ManagedObjectID: InboxRow] = [:]
}
