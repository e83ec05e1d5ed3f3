/// Sections and their items, in order, by identifier: the Linux stand-in for UIKit's and AppKit's
/// `NSDiffableDataSourceSnapshot`, which a ``FetchedResultsController`` hands its delegate in the snapshot form of
/// `controller(_:didChangeContentWith:)` (see ``FetchedResultsControllerDelegate``; Core Data hands an
/// `NSDiffableDataSourceSnapshotReference`, see ``DiffableDataSourceSnapshotReference``).
///
/// Linux has no diffable data source to apply a snapshot to, so this is only the value: the same names and the
/// same answers as UIKit's struct for reading and building one, and ``itemDifference(from:)`` and
/// ``sectionDifference(from:)`` to turn two snapshots into the `CollectionDifference`s a screen applies (those two are
/// Persistence-only, in the `SnapshotDifference` SPI group: `@_spi(SnapshotDifference) import Persistence`).
///
/// ```swift
/// func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
///                 didChangeContentWith snapshot: DiffableDataSourceSnapshotReference) {
///     let changes = snapshot.itemDifference(from: shown)   // what to remove and insert, by object ID
///     shown = snapshot
/// }
/// ```
public struct DiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable>: Hashable {
    /// The sections, in order.
    public private(set) var sectionIdentifiers: [SectionIdentifierType] = []
    private var itemsBySection: [[ItemIdentifierType]] = []
    /// The items that ``reloadItems(_:)`` marked, to be drawn again in new cells. A fetched results controller marks
    /// none here (see ``FetchedResultsControllerDelegate``).
    public private(set) var reloadedItemIdentifiers: [ItemIdentifierType] = []
    /// The items that ``reconfigureItems(_:)`` marked, to be drawn again in the cells they have (UIKit, iOS 15 and
    /// later).
    public private(set) var reconfiguredItemIdentifiers: [ItemIdentifierType] = []

    /// An empty snapshot.
    public init() {}

    /// How many sections there are.
    public var numberOfSections: Int { sectionIdentifiers.count }

    /// How many items there are, in all sections.
    public var numberOfItems: Int { itemsBySection.reduce(0) { $0 + $1.count } }

    /// Every item, section after section.
    public var itemIdentifiers: [ItemIdentifierType] { itemsBySection.flatMap { $0 } }

    /// How many items `section` holds (0 for a section the snapshot does not have).
    public func numberOfItems(inSection section: SectionIdentifierType) -> Int {
        itemIdentifiers(inSection: section).count
    }

    /// The items of `section`, in order (none for a section the snapshot does not have).
    public func itemIdentifiers(inSection section: SectionIdentifierType) -> [ItemIdentifierType] {
        indexOfSection(section).map { itemsBySection[$0] } ?? []
    }

    /// The section that holds `item`, if any. (A search through the items.)
    public func sectionIdentifier(containingItem item: ItemIdentifierType) -> SectionIdentifierType? {
        itemsBySection.firstIndex { $0.contains(item) }.map { sectionIdentifiers[$0] }
    }

    /// Where `item` is among all items, section after section, if it is there. (A search through the items.)
    public func indexOfItem(_ item: ItemIdentifierType) -> Int? {
        var offset = 0
        for items in itemsBySection {
            if let index = items.firstIndex(of: item) { return offset + index }
            offset += items.count
        }
        return nil
    }

    /// Where `section` is among the sections, if it is there.
    public func indexOfSection(_ section: SectionIdentifierType) -> Int? {
        sectionIdentifiers.firstIndex(of: section)
    }

    /// Adds sections at the end, empty.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        sectionIdentifiers += identifiers
        itemsBySection += identifiers.map { _ in [] }
    }

    /// Adds items at the end of `section`, or of the last section when `section` is nil. The snapshot must have the
    /// section (UIKit stops the program too).
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection section: SectionIdentifierType? = nil) {
        let index = section.flatMap(indexOfSection) ?? (section == nil ? itemsBySection.indices.last : nil)
        guard let index else {
            preconditionFailure("appendItems(_:toSection:): the snapshot has no section \(section.map { "\($0)" } ?? "to append to")")
        }
        itemsBySection[index] += identifiers
    }

    /// Marks items as changed, to be drawn again in new cells.
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) {
        reloadedItemIdentifiers += identifiers
    }

    /// Marks items as changed, to be drawn again in the cells they have: what UIKit recommends (iOS 15 and later)
    /// for an item whose identifier stays and whose content changed.
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) {
        reconfiguredItemIdentifiers += identifiers
    }

    /// What turns `earlier`'s items into this snapshot's, all sections run together in order, with moves inferred:
    /// `earlier.itemIdentifiers.applying(difference)` gives ``itemIdentifiers``.
    @_spi(SnapshotDifference) public func itemDifference(from earlier: Self) -> CollectionDifference<ItemIdentifierType> {
        itemIdentifiers.difference(from: earlier.itemIdentifiers).inferringMoves()
    }

    /// What turns `earlier`'s sections into this snapshot's.
    @_spi(SnapshotDifference) public func sectionDifference(from earlier: Self) -> CollectionDifference<SectionIdentifierType> {
        sectionIdentifiers.difference(from: earlier.sectionIdentifiers).inferringMoves()
    }
}

extension DiffableDataSourceSnapshot: Sendable where SectionIdentifierType: Sendable, ItemIdentifierType: Sendable {}

/// The snapshot a ``FetchedResultsController`` hands its delegate: sections by name, items by object ID. Core Data
/// hands an `NSDiffableDataSourceSnapshotReference`, which Swift code turns into
/// `NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`; here it is that value already, and
/// `snapshot as DiffableDataSourceSnapshot<String, ManagedObjectID>` reads as it does there.
public typealias DiffableDataSourceSnapshotReference = DiffableDataSourceSnapshot<String, ManagedObjectID>
