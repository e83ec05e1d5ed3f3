import Foundation
@_spi(ModelBuilding) import Persistence

final class Reading: ManagedObject {
    @Managed var value: Double

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Reading> {
        FetchRequest<Reading>(entityName: "Reading")
    }
}

/// Document 001's advice: averaging one attribute over many objects is cheaper when they are not fetched as faults.
enum FaultsLab {
    static func run(rows: Int, reporter: LabReporter) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Reading", managedObjectClass: Reading.self,
                              properties: [.attribute("value", .double, optional: false)]),
        ])
        let store = try LabStore(model: model)
        var random = SeededGenerator(seed: 1)
        var made = 0
        let fill = BatchInsertRequest(entityName: "Reading") { row in
            guard made < rows else { return true }
            row["value"] = Double.random(in: 0..<100, using: &random)
            made += 1
            reporter.progress("filling \(rows) readings", done: made, total: rows)
            return false
        }
        let filler = store.container.newBackgroundContext()
        try filler.performAndWait { _ = try filler.execute(fill) }

        func average(_ values: [Double]) -> String {
            let mean = values.reduce(0, +) / Double(max(values.count, 1))
            return String(format: "average %.3f over %d objects", mean, values.count)
        }
        for asFaults in [true, false] {
            let context = store.container.newBackgroundContext()
            _ = try context.performAndWait {
                try reporter.measure(asFaults ? "objects as faults" : "objects not as faults", note: average) {
                    let request = FetchRequest<Reading>(entityName: "Reading")
                    request.returnsObjectsAsFaults = asFaults
                    return try context.fetch(request).map(\.value)
                }
            }
        }
        let context = store.container.newBackgroundContext()
        _ = try context.performAndWait {
            try reporter.measure("dictionaries of the one attribute", note: average) {
                let request = FetchRequest<NSDictionary>(entityName: "Reading")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = ["value"]
                return try context.fetch(request).compactMap { $0["value"] as? Double }
            }
        }
    }
}
