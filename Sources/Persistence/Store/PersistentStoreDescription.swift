import Foundation

/// Where and how a container opens its store.
///
/// The URL `/dev/null` asks for a private in-memory store: each container that loads it gets its own, empty,
/// so parallel tests never share data.
public final class PersistentStoreDescription: @unchecked Sendable, CustomStringConvertible {
    /// The store file (`/dev/null` for an in-memory store).
    public var url: URL
    /// Open the store without writing to it; saves fail.
    public var isReadOnly = false
    /// Load on a background queue and call the completion handler there (instead of before returning).
    public var shouldAddStoreAsynchronously = false
    /// The store options set with ``setOption(_:forKey:)``, by key (Core Data's `options`): among them
    /// `NSPersistentHistoryTrackingKey` and `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, whose values
    /// are `NSNumber`s (`true as NSNumber`). Keys the store does not know are kept and ignored, as in Core Data.
    public private(set) var options: [String: NSObject] = [:]

    /// Sets the store option `key` to `option`, or removes it for `nil` (Core Data's `setOption(_:forKey:)`):
    /// `description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)`. Set options before the
    /// store is loaded; the store reads them once, when it opens.
    public func setOption(_ option: NSObject?, forKey key: String) {
        options[key] = option
    }

    /// A store at `url`, read and written, loaded before ``PersistentContainer/loadPersistentStores(completionHandler:)``
    /// returns.
    public init(url: URL) {
        self.url = url
    }

    /// A description of a private in-memory store.
    public static func inMemory() -> PersistentStoreDescription {
        PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
    }

    public var description: String { "<store \(url.path)\(isReadOnly ? " read-only" : "")>" }
}
