import Foundation

/// Where and how a container opens its store.
///
/// The URL `/dev/null` asks for a private in-memory store: each container that loads it gets its own, empty,
/// so parallel tests never share data.
public final class PersistentStoreDescription: @unchecked Sendable, CustomStringConvertible {
    /// The store file (`/dev/null` for an in-memory store). Optional as in Core Data, where a description made with
    /// `init()` has none; loading a description without a URL fails with 134000 (Apple does not document what its
    /// coordinator does then, so Persistence takes the stricter reading and refuses it, whatever the ``type``).
    public var url: URL?
    /// The kind of store (Core Data's `type`): ``NSSQLiteStoreType``, the default — a store at `/dev/null` is an
    /// SQLite store too, in memory — or ``NSInMemoryStoreType``, which Persistence also keeps in SQLite at
    /// `/dev/null` (whatever ``url`` says). Where they differ: Core Data's own in-memory store supports neither batch
    /// requests nor persistent history; Persistence's does. Tests that should behave as on Apple platforms use an
    /// SQLite store at `/dev/null`, as lesson 1 does.
    public var type = NSSQLiteStoreType
    /// Open the store without writing to it; saves fail.
    public var isReadOnly = false
    /// Load on a background queue and call the completion handler there (instead of before returning).
    public var shouldAddStoreAsynchronously = false
    /// Migrate a store written with another version of the model when it is loaded (Core Data's
    /// `NSMigratePersistentStoresAutomaticallyOption`; true by default, as in Core Data). With it false, such a store
    /// fails to load with 134100.
    public var shouldMigrateStoreAutomatically = true
    /// Infer the mapping for that migration (Core Data's `NSInferMappingModelAutomaticallyOption`; true by default).
    /// Persistence has no mapping model files: with it false, a store that needs migrating fails to load with 134140.
    public var shouldInferMappingModelAutomatically = true
    /// The model configuration the store holds (Core Data's `configuration`); kept and reported by
    /// ``PersistentStore/configurationName``. A store here always holds every entity of the model.
    public var configuration: String?
    /// The store options set with ``setOption(_:forKey:)``, by key (Core Data's `options`): among them
    /// `NSPersistentHistoryTrackingKey` and `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, whose values
    /// are `NSNumber`s (`true as NSNumber`), and ``NSPersistentStoreStagedMigrationManagerOptionKey``. The options
    /// the properties above stand for are set through them. Keys the store does not know are kept and ignored, as in
    /// Core Data.
    public internal(set) var options: [String: NSObject] = [:]

    /// A store at `url`, read and written, loaded before ``PersistentContainer/loadPersistentStores(completionHandler:)``
    /// returns.
    public init(url: URL) {
        self.url = url
    }

    /// A description with no URL yet (Core Data's inherited `init()`): set ``url`` before loading it, unless
    /// ``type`` is ``NSInMemoryStoreType``, which needs none.
    public init() {}

    /// ``url``; for ``NSInMemoryStoreType`` without one, a private store in memory (Core Data's in-memory store
    /// takes no URL — the classic test set-up passes nil); otherwise the error of loading a description without one.
    func requiredURL() throws -> URL {
        if let url { return url }
        if type == CoreDataStoreName.inMemoryStoreType { return URL(fileURLWithPath: "/dev/null") }
        throw PersistenceError(.persistentStoreInvalidType, "The store description has no URL: set its url (/dev/null for an in-memory store) before loading it.")
    }

    /// A description of a private in-memory store: Persistence's shorthand for `init(url:)` with `/dev/null`, as
    /// written on Apple platforms.
    @_spi(TestHarness) public static func inMemory() -> PersistentStoreDescription {
        PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
    }

    public var description: String { "<store \(url?.path ?? "without a URL")\(isReadOnly ? " read-only" : "")>" }
}
