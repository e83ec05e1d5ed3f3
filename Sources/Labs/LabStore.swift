import Foundation
import Persistence

/// A store file in a folder of its own under the temporary directory, removed when the lab is done with it — or
/// interrupted (see `LabStore+Interrupts.swift`).
final class LabStore {
    let folder: URL
    let container: PersistentContainer

    /// A store of its own for `model`, loaded with the store `options` (Core Data's keys, such as
    /// `NSPersistentHistoryTrackingKey`).
    init(model: ManagedObjectModel, options: [String: NSObject] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("persistence-lab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        Self.folders.insert(folder)
        container = PersistentContainer(name: "Lab", managedObjectModel: model)
        let description = PersistentStoreDescription(url: folder.appendingPathComponent("Lab.sqlite"))
        for (key, value) in options { description.setOption(value, forKey: key) }
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure {
            Self.folders.remove(folder)
            throw failure
        }
    }

    deinit {
        Self.folders.remove(folder)
    }
}

/// A small, seeded random generator (SplitMix64), so that every run fills the same data.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
