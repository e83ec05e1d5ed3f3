/// The entity behind ``PersistentHistoryTransaction/entityDescription``: a transaction's attributes, so that a
/// ``FetchRequest`` can filter and sort history with a predicate (`author != %@`, `timestamp > %@`), as Core Data's
/// history model allows. Its attributes' columns are those of the store's `ATRANSACTION` table, so the store runs
/// such a request through the same compiler as any fetch.
enum PersistentHistoryModel {
    static let model: ManagedObjectModel = {
        let transaction = EntityDescription(name: "Transaction", properties: [
            .attribute("timestamp", .date, optional: false),
            .attribute("author", .string),
            .attribute("bundleID", .string),
            .attribute("contextName", .string),
            .attribute("processID", .string),
            // The transaction's number is its table's key (`Z_PK`); the store reads this column as that key.
            .attribute("transactionNumber", .integer64, optional: false),
        ])
        do {
            return try ManagedObjectModel(entities: [transaction])
        } catch {
            fatalError("The persistent history model is invalid: \(error)")
        }
    }()

    static var transactionEntity: EntityDescription { model.entities[0] }

    // Made once and never changed (the schema's tables are read-only after it is made).
    nonisolated(unsafe) static let schema = StoreSchema(model: model)
}
