import Foundation

/// Maps `@Managed` storage key paths to property indexes for one entity. Key paths are not `Sendable`, so a
/// plain lock guards the table; entries are only ever added.
final class KeyPathIndexCache: @unchecked Sendable {
    private let lock = NSLock()
    private var indexes: [AnyKeyPath: Int] = [:]

    subscript(keyPath: AnyKeyPath) -> Int? {
        get { lock.withLock { indexes[keyPath] } }
        set { lock.withLock { indexes[keyPath] = newValue } }
    }
}
