/// The entities behind ``PersistentHistoryTransaction/entityDescription`` and
/// ``PersistentHistoryChange/entityDescription``: the keys a ``FetchRequest`` may filter history on, as Core Data's
/// history model has them (see ``PersistentHistoryChangeRequest/fetchRequest``). The store reads its history
/// tables under these attributes' column names, so such a request compiles through the same compiler as any fetch.
///
/// Apple documents the entities but not their keys. The transaction's are the transaction's own properties plus
/// `token` (compared with a ``PersistentHistoryToken``); the change's are those Core Data's change entity has been
/// seen to have, and nothing of the change's transaction, tombstone or updated properties.
enum PersistentHistoryModel {
    static let model: ManagedObjectModel = {
        let transaction = EntityDescription(name: "Transaction", properties: [
            .attribute("timestamp", .date, optional: false),
            .attribute("author", .string),
            .attribute("bundleID", .string),
            .attribute("contextName", .string),
            .attribute("processID", .string),
            // The transaction's number is its table's key (`Z_PK`); a token stands for that number.
            .attribute("token", .integer64, optional: false),
            .attribute("transactionNumber", .integer64, optional: false),
        ])
        let change = EntityDescription(name: "Change", properties: [
            // The changed object's entity (its `Z_ENT`), compared with an EntityDescription, and its row's key.
            .attribute("changedEntity", .integer64, optional: false),
            .attribute("changedID", .integer64, optional: false),
            // Compared with a ManagedObjectID only: the planner turns it into the two keys above.
            .attribute("changedObjectID", .uri, optional: false),
            // PersistentHistoryChangeType's raw value.
            .attribute("changeType", .integer64, optional: false),
        ])
        do {
            return try ManagedObjectModel(entities: [transaction, change])
        } catch {
            fatalError("The persistent history model is invalid: \(error)")
        }
    }()

    static var transactionEntity: EntityDescription { model.entitiesByName["Transaction"]! }
    static var changeEntity: EntityDescription { model.entitiesByName["Change"]! }

    // Made once and never changed (the schema's tables are read-only after it is made).
    nonisolated(unsafe) static let schema = StoreSchema(model: model)
}
