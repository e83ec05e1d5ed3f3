/// A group of faults fetched together with a ``FetchRequest/fetchBatchSize``: firing one reads the rows of the
/// whole group in one query.
final class FaultBatch {
    let entity: EntityDescription
    let primaryKeys: [Int64]

    init(entity: EntityDescription, primaryKeys: [Int64]) {
        self.entity = entity
        self.primaryKeys = primaryKeys
    }

    /// Splits `objects` into batches of `size` and attaches each batch to its faults.
    static func assign(_ objects: [ManagedObject], size: Int) {
        for chunk in objects.chunked(into: size) {
            let faults = chunk.filter { $0.faultState == .faultWithoutRow }
            guard let first = faults.first else { continue }
            // A fetch of an entity with subentities batches each entity's faults apart: one query reads one
            // entity's columns.
            var groups: [[ManagedObject]] = []
            if faults.allSatisfy({ $0.entity === first.entity }) {
                groups = [faults]
            } else {
                var byEntity: [ObjectIdentifier: Int] = [:]
                for object in faults {
                    if let position = byEntity[ObjectIdentifier(object.entity)] {
                        groups[position].append(object)
                    } else {
                        byEntity[ObjectIdentifier(object.entity)] = groups.count
                        groups.append([object])
                    }
                }
            }
            for group in groups {
                let batch = FaultBatch(entity: group[0].entity, primaryKeys: group.compactMap(\.objectID.primaryKey))
                for object in group { object.batch = batch }
            }
        }
    }
}

extension ManagedObjectContext {
    /// Reads the rows of every fault still waiting in `batch`.
    func fulfill(_ batch: FaultBatch) {
        guard let rows = try? withReadStore({ try $0.rows(of: batch.entity, primaryKeys: batch.primaryKeys) }) else { return }
        for row in rows {
            guard let object = registry.object(entityIndex: batch.entity.index, primaryKey: row.primaryKey),
                  object.faultState == .faultWithoutRow else { continue }
            object.adopt(row, asFault: true)
            object.batch = nil
        }
    }
}
