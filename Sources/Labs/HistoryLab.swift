import Foundation
@_spi(ModelBuilding) import Persistence

/// Lesson 14's comparison: a large batch import brought to a view context that shows a list meanwhile — by hand,
/// merging the IDs the request returned (lesson 12, no history), or through persistent history, reading the
/// import's transaction back and merging its object-ID notification. Each way on a store of its own; the insert and
/// the merge are measured apart, since history changes what each costs.
enum HistoryLab {
    /// How many items the list on screen shows: the newest first.
    static let shown = 1_000
    static let appAuthor = "app"

    static func run(rows: Int, reporter: LabReporter) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", managedObjectClass: ImportedItem.self, properties: [
                .attribute("number", .integer64, optional: false),
                .attribute("title", .string, optional: false),
            ]),
        ])

        // Lesson 12: no history; the request returns the IDs, and the import merges them by hand.
        do {
            let store = try LabStore(model: model)
            let (view, list) = try showList(in: store)
            let inserted = try reporter.measure("batch insert, history off", note: { (ids: [ManagedObjectID]) in
                "\(ids.count) rows inserted, their IDs returned"
            }) {
                try insert(rows, into: store, resultType: .objectIDs, label: "batch insert, history off",
                           reporter: reporter) as? [ManagedObjectID] ?? []
            }
            try reporter.measure("hand merge of the returned IDs", note: { $0 }) { () throws -> String in
                ManagedObjectContext.mergeChanges(
                    fromRemoteContextSave: [ManagedObjectContext.NotificationKey.insertedObjects.rawValue: inserted],
                    into: [view])
                return try view.performAndWait { try describe(view, showing: list) }
            }
        }

        // Lesson 14: the store records history; the reader fetches the import's transaction and merges it.
        do {
            let store = try LabStore(model: model, options: [NSPersistentHistoryTrackingKey: true as NSNumber])
            let (view, list) = try showList(in: store)
            let token = store.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
            try reporter.measure("batch insert, history on", note: { (count: Int) in
                "\(count) rows inserted, each change recorded in the same transaction"
            }) {
                try insert(rows, into: store, resultType: .count, label: "batch insert, history on",
                           reporter: reporter) as? Int ?? 0
            }
            try reporter.measure("merge through history", note: { $0 }) { () throws -> String in
                let reader = store.container.newBackgroundContext()
                let transactions = try reader.performAndWait {
                    let result = try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: token))
                    return (result as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction] ?? []
                }
                return try view.performAndWait {
                    for transaction in transactions where transaction.author != appAuthor {
                        view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                    }
                    return try describe(view, showing: list)
                }
            }
        }
    }

    /// Fills the first screenful and shows it in the store's view context, signed as the app; the list keeps the
    /// objects it shows (a context holds an unchanged object only while something does).
    private static func showList(in store: LabStore) throws -> (ManagedObjectContext, ScreenList) {
        let filler = store.container.newBackgroundContext()
        try filler.performAndWait {
            for number in 0..<shown {
                let item = ImportedItem(context: filler)
                item.number = number
                item.title = "Item \(number)"
            }
            try filler.save()
        }
        let view = store.container.viewContext
        view.transactionAuthor = appAuthor
        let list = ScreenList()
        try view.performAndWait { list.items = try view.fetch(screen()) }
        return (view, list)
    }

    /// One batch insert of `rows` items after the first screenful, on a background context of its own, its rows
    /// made one by one by the request's handler (no array of every dictionary in memory). Returns the result's
    /// value, as `resultType` says.
    private static func insert(_ rows: Int, into store: LabStore, resultType: BatchInsertRequestResultType,
                               label: String, reporter: LabReporter) throws -> Any? {
        let importer = store.container.newBackgroundContext()
        importer.transactionAuthor = "import"
        return try importer.performAndWait {
            var next = 0
            let request = BatchInsertRequest(entityName: "Item") { row in
                guard next < rows else { return true }
                let number = shown + next
                row["number"] = number
                row["title"] = "Item \(number)"
                next += 1
                if next % 5_000 == 0 || next == rows { reporter.progress(label, done: next, total: rows) }
                return false
            }
            request.resultType = resultType
            return (try importer.execute(request) as? BatchInsertResult)?.result
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

    /// What the view context holds once the merge is done and the list has fetched again, and where it starts.
    private static func describe(_ view: ManagedObjectContext, showing list: ScreenList) throws -> String {
        list.items = try view.fetch(screen())
        let top = list.items.first?.number ?? -1
        return "the view context holds \(view.registeredObjects.count) objects, its list starts at item \(top)"
    }
}
