import Foundation
import Persistence

final class ImportedItem: ManagedObject {
    @Managed var number: Int
    @Managed var title: String
}

/// Document 000's open question: a large import in pages on a background context while another context shows the
/// data — merging every page as it is saved, or merging nothing and catching up once at the end, or pinning the
/// showing context to a query generation.
enum ImportLab {
    static let page = 5_000
    /// How many objects the showing context holds, as a list on screen would.
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
                       catchUp: { try $0.setQueryGenerationFrom(.current) })
    }

    private static func importWith(_ name: String, rows: Int, model: ManagedObjectModel, reporter: LabReporter,
                                   prepare: (ManagedObjectContext) throws -> Void,
                                   catchUp: (ManagedObjectContext) throws -> Void) throws {
        let store = try LabStore(model: model)
        try save(0..<shown, in: store.container.newBackgroundContext())
        // A private-queue context stands in for the view context: a terminal program has no main run loop.
        let showing = store.container.newBackgroundContext()
        try showing.performAndWait {
            try prepare(showing)
            let request = FetchRequest<ImportedItem>(entityName: "Item")
            request.returnsObjectsAsFaults = false
            _ = try showing.fetch(request)
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
            // The merges run on the showing context's queue: the import is over when that queue has caught up.
            return try showing.performAndWait {
                try catchUp(showing)
                let count = try showing.count(for: FetchRequest<ImportedItem>(entityName: "Item"))
                return "the showing context counts \(count) items, holds \(showing.registeredObjects.count)"
            }
        }
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
