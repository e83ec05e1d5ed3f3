import Foundation
@_spi(ModelBuilding) import Persistence

final class ShopItem: ManagedObject {
    @Managed var serial: Int
    @Managed var shelf: String
    @Managed var rank: Int
    @Managed var inStock: Bool

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<ShopItem> {
        FetchRequest<ShopItem>(entityName: "ShopItem")
    }
}

/// A fetched results controller over many rows receiving one merge of another context's save: what keeping the
/// list live costs, next to fetching it all again. The merge changes 1,000 objects: 700 updated (most move, some to
/// another shelf, some out of stock), 200 inserted, 100 deleted.
enum FetchedResultsLab {
    /// Counts what the delegate is told.
    private final class Counter: FetchedResultsControllerDelegate {
        var counts: [FetchedResultsChangeType: Int] = [:]
        var sections = 0
        var batches = 0

        func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            counts[type, default: 0] += 1
        }

        func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                        didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                        for type: FetchedResultsChangeType) {
            sections += 1
        }

        func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
            batches += 1
        }

        var summary: String {
            "\(batches) batch: \(counts[.insert] ?? 0) inserted, \(counts[.delete] ?? 0) deleted, "
                + "\(counts[.move] ?? 0) moved, \(counts[.update] ?? 0) updated, \(sections) section changes"
        }
    }

    static let shelves = (0..<26).map { String(UnicodeScalar(UInt8(97 + $0))) }

    static func run(rows: Int, reporter: LabReporter) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "ShopItem", managedObjectClass: ShopItem.self, properties: [
                .attribute("serial", .integer64, defaultValue: 0),
                .attribute("shelf", .string, defaultValue: ""),
                .attribute("rank", .integer32, defaultValue: 0),
                .attribute("inStock", .boolean, defaultValue: true),
            ]),
        ])
        let store = try LabStore(model: model)
        var random = SeededGenerator(seed: 15)
        var made = 0
        let fill = BatchInsertRequest(entityName: "ShopItem") { row in
            guard made < rows else { return true }
            made += 1
            row["serial"] = made
            row["shelf"] = shelves[Int.random(in: 0..<shelves.count, using: &random)]
            row["rank"] = Int.random(in: 0..<1000, using: &random)
            row["inStock"] = true
            reporter.progress("filling \(rows) items", done: made, total: rows)
            return false
        }
        let filler = store.container.newBackgroundContext()
        try filler.performAndWait { _ = try filler.execute(fill) }

        let request = FetchRequest<ShopItem>(entityName: "ShopItem")
        request.predicate = FetchPredicate(format: "inStock == YES")
        request.sortDescriptors = [
            FetchSortDescriptor(key: "shelf", ascending: true), FetchSortDescriptor(key: "rank", ascending: true),
            FetchSortDescriptor(key: "serial", ascending: true),
        ]
        // The same objects in a context without a controller: what fetching and merging cost by themselves.
        let plain = store.container.newBackgroundContext()
        var plainObjects: [ShopItem] = []
        try plain.performAndWait {
            try reporter.measure("fetch alone, for comparison", note: { "\(plainObjects.count) items; \(residentMB()) in use after" }) {
                plainObjects = try plain.fetch(request)
            }
        }

        let context = store.container.newBackgroundContext()
        let counter = Counter()
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: "shelf", cacheName: nil)
        controller.delegate = counter
        try context.performAndWait {
            try reporter.measure("performFetch", note: { "\(controller.fetchedObjects?.count ?? 0) items in \(controller.sections?.count ?? 0) sections; \(residentMB()) in use after" }) {
                try controller.performFetch()
            }
        }

        // Another context's save of 1,000 changed objects.
        let writer = store.container.newBackgroundContext()
        let saved: Notification = try writer.performAndWait {
            let all = try writer.fetch(FetchRequest<ShopItem>(entityName: "ShopItem"))
            var picks = Array(all.shuffled(using: &random).prefix(800))
            for item in picks.prefix(700) {
                item.rank = Int.random(in: 0..<1000, using: &random)
                if Int.random(in: 0..<10, using: &random) == 0 { item.shelf = shelves.randomElement(using: &random)! }
                if Int.random(in: 0..<20, using: &random) == 0 { item.inStock = false }
            }
            for item in picks.suffix(100) { writer.delete(item) }
            picks.removeAll()
            for index in 0..<200 {
                let item = ShopItem(context: writer)
                item.serial = rows + 1 + index
                item.shelf = shelves.randomElement(using: &random)!
                item.rank = Int.random(in: 0..<1000, using: &random)
            }
            nonisolated(unsafe) var note: Notification?
            let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                               object: writer, queue: nil) { note = $0 }
            defer { NotificationCenter.default.removeObserver(token) }
            try writer.save()
            return note!
        }
        plain.performAndWait {
            reporter.measure("merge of 1,000 changed objects, no controller", note: { _ in "\(residentMB()) in use after" }) {
                plain.mergeChanges(fromContextDidSave: saved)
            }
        }
        context.performAndWait {
            let before = residentMB()
            reporter.measure("merge of 1,000 changed objects, followed", note: { counter.summary + "; \(before) in use before, \(residentMB()) after" }) {
                context.mergeChanges(fromContextDidSave: saved)
            }
        }
        try context.performAndWait {
            try reporter.measure("performFetch again, for comparison", note: { "\(controller.fetchedObjects?.count ?? 0) items in \(controller.sections?.count ?? 0) sections" }) {
                try controller.performFetch()
            }
        }
    }

    /// The memory the process holds now (`VmRSS`), for the notes; "?" where it cannot be read.
    private static func residentMB() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Double($0) })
        else { return "?" }
        return String(format: "%.1f MB", kilobytes / 1024)
    }
}
