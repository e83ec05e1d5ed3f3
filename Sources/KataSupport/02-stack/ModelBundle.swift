import Foundation
import Persistence

/// The models an app ships, found by name — this workbook's stand-in for the compiled `.momd` files in an
/// app bundle that `NSPersistentContainer(name:)` and `NSManagedObjectModel(contentsOf:)` read.
///
/// Like reading a file, every ``model(named:)`` call builds a *new* model instance. Loading the same model twice
/// and giving each copy its own container is what makes Core Data warn "Multiple NSEntityDescriptions claim the
/// NSManagedObject subclass"; lesson 2 shows how to load each model once.
public struct ModelBundle: Sendable {
    /// The app's bundle: the `Garden`, `Bookshelf` and `Orchard` models.
    public static let main = ModelBundle(models: [
        GardenModel.name: GardenModel.make,
        BookshelfModel.name: BookshelfModel.make,
        OrchardModel.name: OrchardModel.make,
    ])

    private let models: [String: @Sendable () throws -> ManagedObjectModel]

    public init(models: [String: @Sendable () throws -> ManagedObjectModel]) {
        self.models = models
    }

    /// How long reading a model takes, in seconds: 0, unless a kata makes it slow to let two callers overlap, as
    /// reading a large `.momd` from disk would. Set it only while no model is being read.
    nonisolated(unsafe) public static var readingTime: Double = 0

    /// How many times the model called `name` has been read from any bundle in this process: lets a kata see that
    /// a model came from the bundle, and how often it was read.
    public static func reads(of name: String) -> Int { ReadCount.shared.count(of: name) }

    /// The names of the models in the bundle, sorted.
    public var modelNames: [String] { models.keys.sorted() }

    /// A new instance of the model called `name`, or nil when the bundle has no such model (a misspelt name,
    /// which Core Data only reports in its log when the container is made).
    /// - Throws: the model's own error when it is inconsistent.
    public func model(named name: String) throws -> ManagedObjectModel? {
        guard let make = models[name] else { return nil }
        ReadCount.shared.add(name)
        if Self.readingTime > 0 { Thread.sleep(forTimeInterval: Self.readingTime) }
        return try make()
    }

    /// The reads so far, by model name, behind a lock: models are read from several threads at once.
    private final class ReadCount: @unchecked Sendable {
        static let shared = ReadCount()
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        func add(_ name: String) { lock.lock(); counts[name, default: 0] += 1; lock.unlock() }
        func count(of name: String) -> Int { lock.lock(); defer { lock.unlock() }; return counts[name] ?? 0 }
    }
}
