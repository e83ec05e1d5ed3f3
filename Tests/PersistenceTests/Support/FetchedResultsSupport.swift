import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence
import XCTest

// What the fetched results controller tests share: a shop's gadgets (sections by shelf, sorted by shelf, rank and a
// unique serial, filtered by being in stock) and delegates that keep a list of rows from the callbacks alone, the way
// a screen does, checking UIKit's batch rules as they apply them.

final class Gadget: ManagedObject {
    @Managed var serial: Int
    @Managed var shelf: String
    @Managed var rank: Int
    @Managed var inStock: Bool
    @Managed var note: String?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Gadget> {
        FetchRequest<Gadget>(entityName: "Gadget")
    }
}

enum GadgetModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Gadget", managedObjectClass: Gadget.self, properties: [
                .attribute("serial", .integer64, defaultValue: 0),
                .attribute("shelf", .string, defaultValue: ""),
                .attribute("rank", .integer32, defaultValue: 0),
                .attribute("inStock", .boolean, defaultValue: true),
                .attribute("note", .string),
            ]),
        ])
    }

    /// In stock, by shelf, rank and serial: no two gadgets tie.
    static func request(sectioned: Bool = true) -> FetchRequest<Gadget> {
        let request: FetchRequest<Gadget> = Gadget.fetchRequest()
        request.predicate = FetchPredicate(format: "inStock == YES")
        request.sortDescriptors = (sectioned ? [FetchSortDescriptor(key: "shelf", ascending: true)] : [])
            + [FetchSortDescriptor(key: "rank", ascending: true), FetchSortDescriptor(key: "serial", ascending: true)]
        return request
    }

    /// What a fresh fetch shows: the sections (by shelf, or one unnamed) and their objects.
    static func freshRows(_ request: FetchRequest<Gadget>, sectioned: Bool,
                          in context: ManagedObjectContext) throws -> [ListSection] {
        let copy: FetchRequest<Gadget> = Gadget.fetchRequest()
        copy.predicate = request.predicate
        copy.sortDescriptors = request.sortDescriptors
        let gadgets = try context.fetch(copy)
        guard sectioned else { return [ListSection(name: "", rows: gadgets)] }
        var sections: [ListSection] = []
        for gadget in gadgets {
            if sections.last?.name == gadget.shelf { sections[sections.count - 1].rows.append(gadget) } else {
                sections.append(ListSection(name: gadget.shelf, rows: [gadget]))
            }
        }
        return sections
    }
}

/// A section of a screen's list.
struct ListSection: Equatable {
    var name: String
    var rows: [ManagedObject]

    static func == (lhs: ListSection, rhs: ListSection) -> Bool {
        lhs.name == rhs.name && lhs.rows.count == rhs.rows.count && zip(lhs.rows, rhs.rows).allSatisfy { $0 === $1 }
    }
}

/// The controller's own sections, as a list.
func listSections(of controller: FetchedResultsController<Gadget>) -> [ListSection] {
    (controller.sections ?? []).map { ListSection(name: $0.name, rows: $0.objects as? [ManagedObject] ?? []) }
}

/// A screen that applies the row-by-row callbacks to its own list, as a table view applies a batch: deletions and
/// moves' sources at old index paths, deleted sections, inserted sections, then insertions and moves' targets at
/// new index paths. It checks the rules a table view enforces: an old index path names the object reported there,
/// an update's old index path names the updated object and its new one the same object afterwards.
final class RowByRowScreen: FetchedResultsControllerDelegate {
    private(set) var list: [ListSection] = []
    private(set) var batches = 0
    private(set) var calls: [String] = []
    /// Problems found while applying: a screen would have crashed or shown the wrong rows.
    private(set) var problems: [String] = []
    /// Called after each batch is applied, inside `controllerDidChangeContent(_:)`.
    var afterBatch: (() -> Void)?

    private var sectionChanges: [(info: any FetchedResultsSectionInfo, index: Int, type: FetchedResultsChangeType)] = []
    private var rowChanges: [(object: ManagedObject, at: IndexPath?, type: FetchedResultsChangeType, new: IndexPath?)] = []
    private var inBatch = false

    func show(_ controller: FetchedResultsController<Gadget>) {
        list = listSections(of: controller)
    }

    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        calls.append("will")
        if inBatch { problems.append("willChangeContent twice without didChangeContent") }
        inBatch = true
        sectionChanges = []
        rowChanges = []
    }

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType) {
        calls.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
        if !inBatch { problems.append("a section change outside a batch") }
        if !rowChanges.isEmpty { problems.append("a section change after an object change (sections come first)") }
        sectionChanges.append((sectionInfo, sectionIndex, type))
    }

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        calls.append("\(type) \(indexPath.map { "\($0)" } ?? "-") \(newIndexPath.map { "\($0)" } ?? "-")")
        if !inBatch { problems.append("an object change outside a batch") }
        guard let object = anObject as? ManagedObject else {
            problems.append("the changed object is not a managed object: \(anObject)")
            return
        }
        switch type {
        case .insert where indexPath != nil || newIndexPath == nil,
             .delete where indexPath == nil || newIndexPath != nil,
             .move where indexPath == nil || newIndexPath == nil,
             .update where indexPath == nil:
            problems.append("\(type) with index paths \(String(describing: indexPath)) → \(String(describing: newIndexPath))")
        default:
            rowChanges.append((object, indexPath, type, newIndexPath))
        }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        calls.append("did")
        inBatch = false
        batches += 1
        apply()
        afterBatch?()
    }

    private func object(at path: IndexPath, in list: [ListSection]) -> ManagedObject? {
        guard list.indices.contains(path[0]), list[path[0]].rows.indices.contains(path[1]) else { return nil }
        return list[path[0]].rows[path[1]]
    }

    private func apply() {
        var list = self.list
        // Old index paths name the objects reported there.
        for change in rowChanges where change.type != .insert {
            if object(at: change.at!, in: list) !== change.object {
                problems.append("\(change.type) at \(change.at!): the screen shows another object there")
            }
        }
        // Deletions and moves' sources, from the end of each section.
        let leaving = rowChanges.filter { $0.type == .delete || $0.type == .move }.map { $0.at! }
            .sorted(by: >)
        for path in leaving where object(at: path, in: list) != nil {
            list[path[0]].rows.remove(at: path[1])
        }
        for (_, index, _) in sectionChanges.filter({ $0.type == .delete }).sorted(by: { $0.index > $1.index }) {
            guard list.indices.contains(index) else {
                problems.append("delete of section \(index), which the screen does not have")
                continue
            }
            if !list[index].rows.isEmpty { problems.append("section \(index) deleted with rows left in it") }
            list.remove(at: index)
        }
        for (info, index, _) in sectionChanges.filter({ $0.type == .insert }).sorted(by: { $0.index < $1.index }) {
            guard index <= list.count else {
                problems.append("insert of section \(index) beyond the end")
                continue
            }
            list.insert(ListSection(name: info.name, rows: []), at: index)
        }
        let arriving = rowChanges.filter { $0.type == .insert || $0.type == .move }
            .sorted { $0.new! < $1.new! }
        for change in arriving {
            let path = change.new!
            guard list.indices.contains(path[0]), path[1] <= list[path[0]].rows.count else {
                problems.append("\(change.type) to \(path), beyond the screen's rows")
                continue
            }
            list[path[0]].rows.insert(change.object, at: path[1])
        }
        // An update's new index path names it once the batch is applied.
        for change in rowChanges where change.type == .update {
            if let new = change.new, object(at: new, in: list) !== change.object {
                problems.append("update's new index path \(new) names another object")
            }
        }
        self.list = list
    }
}

/// A screen that keeps a list of object IDs from the difference form alone.
final class DifferenceScreen: FetchedResultsControllerDelegate {
    var ids: [ManagedObjectID] = []
    private(set) var differences = 0
    private(set) var otherCalls = 0
    var afterDifference: (() -> Void)?

    /// The last difference applied.
    private(set) var lastDifference: CollectionDifference<ManagedObjectID>?

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChangeContentWith diff: CollectionDifference<ManagedObjectID>) {
        differences += 1
        lastDifference = diff
        ids = ids.applying(diff) ?? []
        afterDifference?()
    }

    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { otherCalls += 1 }
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { otherCalls += 1 }
}

/// A screen that shows each snapshot as it comes.
final class SnapshotScreen: FetchedResultsControllerDelegate {
    private(set) var snapshots: [DiffableDataSourceSnapshotReference] = []
    private(set) var otherCalls = 0
    var afterSnapshot: (() -> Void)?

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChangeContentWith snapshot: DiffableDataSourceSnapshotReference) {
        snapshots.append(snapshot)
        afterSnapshot?()
    }

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChangeContentWith diff: CollectionDifference<ManagedObjectID>) { otherCalls += 1 }
    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { otherCalls += 1 }
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { otherCalls += 1 }
}
