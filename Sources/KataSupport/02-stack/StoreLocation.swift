import Foundation
import Persistence

/// Where a ``StorageProvider``-style stack keeps its store: in a file that outlives the process, or in a private
/// in-memory store that starts empty and disappears with its container (for tests and previews).
public enum StoreLocation: Sendable, Equatable {
    /// An SQLite file at this URL; its folder must exist and be writable.
    case persisted(URL)
    /// A private in-memory store: the URL `/dev/null`.
    case inMemory

    /// The file a model's store goes in by default: `<name>.sqlite` in the container's default folder
    /// (`~/.local/share` on Linux, Application Support on Apple platforms).
    public static func defaultPersisted(modelName: String) -> StoreLocation {
        .persisted(PersistentContainer.defaultDirectoryURL().appendingPathComponent("\(modelName).sqlite"))
    }

    /// The URL a store description uses for this location.
    public var url: URL {
        switch self {
        case .persisted(let url): return url
        case .inMemory: return URL(fileURLWithPath: "/dev/null")
        }
    }
}
