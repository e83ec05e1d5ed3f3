import Foundation
@_spi(ModelBuilding) import Persistence

/// One expense of the budget app.
final class Expense: ManagedObject {
    @Managed var title: String
    /// In cents.
    @Managed var cents: Int

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Expense> {
        FetchRequest<Expense>(entityName: "Expense")
    }
}

enum Budget {
    /// The budget model: one entity, `Expense`.
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel(entities: [
                EntityDescription(name: "Expense", managedObjectClass: Expense.self, properties: [
                    .attribute("title", .string, optional: false),
                    .attribute("cents", .integer64, defaultValue: 0),
                ]),
            ])
        } catch {
            fatalError("the budget model: \(error)")
        }
    }()

    /// Opens the budget store at `url` for a program whose saves are signed `author`. `history` false opens it
    /// the way a program that never heard of persistent history would.
    static func open(_ url: URL, author: String, history: Bool = true) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Budget", managedObjectModel: model)
        // region: turn-on
        // The description the container made for its store, moved to the shared file.
        guard let store = container.persistentStoreDescriptions.first else { fatalError("no store description") }
        store.url = url
        if history {
            // Both options before the store is loaded, by every program that opens the file.
            store.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
            store.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        }
        // endregion: turn-on
        var failure: (any Error)?            // the handler runs before loadPersistentStores returns
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        // region: authors
        let screen = container.viewContext
        screen.name = "viewContext"
        screen.transactionAuthor = author
        // On Apple's platforms also `screen.stalenessInterval = 0`: others write this file, past the
        // row data the coordinator caches. Persistence keeps no such cache.
        // endregion: authors
        return container
    }

    /// "Coffee 3.20".
    static func describe(_ expense: Expense) -> String {
        "\(expense.title) \(expense.cents / 100).\(String(format: "%02d", expense.cents % 100))"
    }

    /// How a transaction reads in the example's output.
    static func describe(_ transaction: PersistentHistoryTransaction) -> String {
        let changes = transaction.changes ?? []
        let counts = [PersistentHistoryChangeType.insert, .update, .delete].compactMap { type -> String? in
            let count = changes.filter { $0.changeType == type }.count
            guard count > 0 else { return nil }
            let word = type == .insert ? "insertion" : type == .update ? "update" : "deletion"
            return "\(count) \(word)\(count == 1 ? "" : "s")"
        }
        return "transaction \(transaction.transactionNumber) by \"\(transaction.author ?? "nil")\" "
            + "in \"\(transaction.contextName ?? "nil")\": " + counts.joined(separator: ", ")
    }
}
