import Foundation

/// One store a ``PersistentStoreCoordinator`` has loaded (Core Data's `NSPersistentStore`): where it is, of what
/// type, how it was opened, and its metadata. The coordinator makes it; get it from
/// ``PersistentStoreCoordinator/persistentStores`` or ``PersistentStoreCoordinator/persistentStore(for:)``.
public final class PersistentStore: @unchecked Sendable, CustomStringConvertible {
    /// The store's file (`/dev/null` for an in-memory store).
    public let url: URL?
    /// ``NSSQLiteStoreType`` or ``NSInMemoryStoreType``.
    public let type: String
    /// The store's UUID, from its metadata (`NSStoreUUID`); part of every permanent object ID.
    public let identifier: String!
    /// `true` for a store opened read-only: saves into it fail.
    public let isReadOnly: Bool
    /// The options it was added with (``PersistentStoreCoordinator/addPersistentStore(ofType:configurationName:at:options:)``).
    public let options: [AnyHashable: Any]?
    /// The model configuration the store holds; Core Data's name for none, `PF_DEFAULT_CONFIGURATION_NAME`, when it
    /// was added without one (a store here always holds every entity).
    public let configurationName: String
    weak var coordinator: PersistentStoreCoordinator?

    init(url: URL, type: String, identifier: String, isReadOnly: Bool, options: [AnyHashable: Any]?,
         configurationName: String?, coordinator: PersistentStoreCoordinator) {
        self.url = url
        self.type = type
        self.identifier = identifier
        self.isReadOnly = isReadOnly
        self.options = options
        self.configurationName = configurationName ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.coordinator = coordinator
    }

    /// The store's metadata (see ``PersistentStoreCoordinator/metadata(for:)``); setting it is
    /// ``PersistentStoreCoordinator/setMetadata(_:for:)``: written with the next save.
    public var metadata: [String: Any]! {
        get { coordinator?.metadata(for: self) ?? [:] }
        set { coordinator?.setMetadata(newValue, for: self) }
    }

    public var description: String { "<PersistentStore \(type) \(url?.path ?? "")>" }
}
