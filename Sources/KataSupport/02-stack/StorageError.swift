import Foundation

/// What can go wrong while setting up a stack, as a value an app can handle instead of a crash.
public enum StorageError: Error, CustomStringConvertible {
    /// No model has this name (a typo in the model's name: the compiler cannot catch it).
    case modelNotFound(name: String, available: [String])
    /// The store at `url` could not be loaded; `underlying` is the container's error (no permission, a missing
    /// folder, a file that is not a database…). The stack can try again later.
    case storeUnavailable(url: URL, underlying: any Error)

    public var description: String {
        switch self {
        case .modelNotFound(let name, let available):
            return "no model named \"\(name)\"; the bundle has: \(available.joined(separator: ", "))"
        case .storeUnavailable(let url, let underlying):
            return "the store at \(url.path) could not be loaded: \(underlying)"
        }
    }
}
