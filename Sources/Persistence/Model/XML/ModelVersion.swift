import Foundation

/// One version of a `.xcdatamodeld`, read only when a search asks for it: lightweight migration looks through the
/// versions for the one that wrote a store, and a version that cannot be read is skipped with its reason rather
/// than ending the search.
struct ModelVersion: Sendable {
    /// The version's folder name without `.xcdatamodel` (`Moody 2`).
    let name: String
    /// Reads the version; throws what reading the model file reports.
    let load: @Sendable () throws -> ManagedObjectModel

    /// Why a version searched for a store did not serve: the one line a "no source model" error gives it.
    enum Skip {
        case unreadable(any Error)
        case otherVersion

        func describe(_ name: String) -> String {
            switch self {
            case .unreadable(let error): "'\(name)' could not be read (\(error))"
            case .otherVersion: "'\(name)' loaded, but its entity version hashes are not the store's"
            }
        }
    }
}
