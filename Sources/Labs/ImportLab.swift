import Foundation
@_spi(ModelBuilding) import Persistence

final class ImportedItem: ManagedObject {
    @Managed var number: Int
    @Managed var title: String

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<ImportedItem> {
        FetchRequest<ImportedItem>(entityName: "ImportedItem")
    }
}

/// Document 000's open question: a large import saved in pages by a background context while the view context
/// shows a list of the data — merging every page automatically, merging nothing and resetting once at the end, or
/// pinning the view context to a query generation and moving it on at the end. Each way on a store of its own.
enum ImportLab {
    static let page = 5_000
    /// How many items the list on screen shows: the newest first.
    static let shown = 1_000

    static func run(rows: Int, reporter: LabReporter) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", managedObjectClass: ImportedItem.self, properties: [
                .attribute("number", .integer64, optional: false),
                .attribute("title", .string, optional: false),
            ]),
        ])
        try importWith("merging every page", rows: rows, model: model, reporter: reporter,
                       prepare: { $0.automaticallyMergesChangesFromParent = true },
                       catchUp: { _ in })
        try importWith("no merging, one reset at the end", rows: rows, model: model, reporter: reporter,
                       prepare: { _ in },
                       catchUp: { $0.reset() })
        try importWith("pinned to a query generation, then moved on", rows: rows, model: model, reporter: reporter,
                       prepare: { try $0.setQueryGenerationFrom(.current) },
                       catchUp: { view in
                           try view.setQueryGenerationFrom(.current)
                           view.refreshAllObjects()
                       })
    }

    /// Fills the first screenful, shows it in the view context set up by `prepare`, then times the import and
    /// `catchUp` up to the moment the view context shows the newest items.
    private static func importWith(_ name: String, rows: Int, model: ManagedObjectModel, reporter: LabReporter,
                                   prepare: (ManagedObjectContext) throws -> Void,
                                   catchUp: (ManagedObjectContext) throws -> Void) throws {
        let store = try LabStore(model: model)
        try save(0..<shown, in: store.container.newBackgroundContext())
        let view = store.container.viewContext
        let merges = MergeCounter(view)
        // The list on screen keeps the objects it shows: a context holds an unchanged object only while something does.
        let list = ScreenList()
        try view.performAndWait {
            try prepare(view)
            list.items = try view.fetch(screen())
        }
        try reporter.measure(name, note: { $0 }) { () throws -> String in
            let importer = store.container.newBackgroundContext()
            var done = shown
            while done < shown + rows {
                let end = min(shown + rows, done + page)
                try save(done..<end, in: importer)
                done = end
                reporter.progress(name, done: done - shown, total: rows)
            }
            // Merges run on the main queue, after the saves that sent them: once this block runs there, the
            // view context has caught up with every page.
            return try view.performAndWait {
                try catchUp(view)
                list.items = try view.fetch(screen())
                let top = list.items.first?.number ?? -1
                let pages = merges.count == 1 ? "1 page" : "\(merges.count) pages"
                return "the view context merged \(pages), holds \(view.registeredObjects.count) objects, "
                    + "its list starts at item \(top)"
            }
        }
    }

    /// The list on screen: the newest items.
    private static func screen() -> FetchRequest<ImportedItem> {
        let request = FetchRequest<ImportedItem>(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "number", ascending: false)]
        request.fetchLimit = shown
        request.returnsObjectsAsFaults = false
        return request
    }

    private static func save(_ numbers: Range<Int>, in context: ManagedObjectContext) throws {
        try context.performAndWait {
            for number in numbers {
                let item = ImportedItem(context: context)
                item.number = number
                item.title = "Item \(number)"
            }
            try context.save()
            context.reset()
        }
    }
}

/// Counts the merges that brought new objects into a context (its did-change notifications with insertions).
private final class MergeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var merges = 0
    private var observer: (any NSObjectProtocol)?

    init(_ context: ManagedObjectContext) {
        let key = ManagedObjectContext.NotificationKey.insertedObjects.rawValue
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { [weak self] note in
            guard let inserted = note.userInfo?[key] as? Set<ManagedObject>, !inserted.isEmpty else { return }
            self?.lock.withLock { self?.merges += 1 }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var count: Int { lock.withLock { merges } }
}
