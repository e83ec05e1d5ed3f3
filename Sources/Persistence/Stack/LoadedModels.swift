import Synchronization

/// The models of the coordinators made in this process, held weakly: what `ManagedObject.entity()` searches, as
/// Core Data's `+entity` looks through the models it has loaded.
enum LoadedModels {
    private struct Entry: @unchecked Sendable {
        weak var model: ManagedObjectModel?
    }

    private static let entries = Mutex<[Entry]>([])

    /// Records `model` (once; models that went away are dropped on the way).
    static func add(_ model: ManagedObjectModel) {
        entries.withLock { entries in
            entries.removeAll { $0.model == nil }
            if !entries.contains(where: { $0.model === model }) { entries.append(Entry(model: model)) }
        }
    }

    /// The entities of the live models whose class is exactly `type`, newest model first.
    static func entities(for type: ManagedObject.Type) -> [EntityDescription] {
        let models = entries.withLock { $0.compactMap(\.model) }
        return models.reversed().compactMap { $0.entity(for: type) }
    }
}
