import Foundation
@_spi(ModelBuilding) import Persistence

/// An object with ten integer attributes, the shape every case uses.
final class Row: ManagedObject {
    @Managed var v0: Int
    @Managed var v1: Int
    @Managed var v2: Int
    @Managed var v3: Int
    @Managed var v4: Int
    @Managed var v5: Int
    @Managed var v6: Int
    @Managed var v7: Int
    @Managed var v8: Int
    @Managed var v9: Int

    func set(_ base: Int) {
        v0 = base; v1 = base + 1; v2 = base + 2; v3 = base + 3; v4 = base + 4
        v5 = base + 5; v6 = base + 6; v7 = base + 7; v8 = base + 8; v9 = base + 9
    }

    var sum: Int { v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 }
}

enum Workload {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Row", managedObjectClass: Row.self,
                              properties: (0..<10).map { .attribute("v\($0)", .integer64, optional: false) }),
        ])
    }

    static func container(path: String) throws -> PersistentContainer {
        try loadContainer(model: try model(), path: path)
    }

    /// A loaded container for `model` with its one store at `path` (every workload's Persistence side).
    static func loadContainer(model: ManagedObjectModel, path: String) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Bench", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: path))]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Inserts `count` objects in `context` and saves once.
    static func insert(into context: ManagedObjectContext, count: Int) throws {
        try context.performAndWait {
            for index in 0..<count { Row(context: context).set(index * 10) }
            try context.save()
        }
    }

    /// Inserts `count` objects in a new context and saves once (for preparing a store).
    static func insert(into container: PersistentContainer, count: Int) throws {
        try insert(into: container.newBackgroundContext(), count: count)
    }

    /// Fetches every object and reads every attribute; returns the sum. The objects stay registered in `context`.
    static func readAll(in context: ManagedObjectContext) throws -> Int {
        try context.performAndWait {
            try context.fetch(FetchRequest<Row>(entityName: "Row")).reduce(0) { $0 + $1.sum }
        }
    }
}
