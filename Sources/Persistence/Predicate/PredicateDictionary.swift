import Foundation

/// A dictionary a predicate is evaluated with, or meets on a key path: `[String: Any]`, `NSDictionary`, or any
/// other dictionary.
///
/// Its keys are read as `NSDictionary`'s key-value coding reads them: the value stored under the key, nil for a
/// key it does not hold (never an error). Only string keys can be named by a key path; entries under other keys
/// still count among ``values``, which `IN` tests against (Apple's format syntax: with a dictionary on the right
/// of `IN`, its values are used). A dictionary has no object ID.
struct PredicateDictionary: PredicateEvaluable {
    /// The entries a key path can reach, by key.
    private let entries: [String: Any]
    /// Every value, whatever its key.
    let values: [Any]

    /// The dictionary `value` is, or nil when it is not one.
    init?(_ value: Any) {
        guard let pairs = Self.entries(of: value) else { return nil }
        var entries: [String: Any] = [:]
        for (key, value) in pairs {
            if let key = key.base as? String { entries[key] = value }
        }
        self.entries = entries
        self.values = pairs.map(\.value)
    }

    /// The entries of `value` when it is a dictionary: a Swift `Dictionary` of any key and value types, or an
    /// `NSDictionary`.
    static func entries(of value: Any) -> [(key: AnyHashable, value: Any)]? {
        if let dictionary = value as? any DictionaryEntries { return dictionary.anyEntries }
        if let dictionary = value as? NSDictionary {
            var pairs: [(key: AnyHashable, value: Any)] = []
            dictionary.enumerateKeysAndObjects { key, value, _ in
                if let key = key as? AnyHashable { pairs.append((key, value)) }
            }
            return pairs
        }
        return nil
    }

    var predicateObjectID: ManagedObjectID? { nil }
    var predicateKindName: String { "dictionary" }

    func predicateValue(forKey key: String) throws -> PredicateValue {
        guard let value = entries[key] else { return .null }
        return try PredicateValue(converting: value)
    }
}

/// Lets ``PredicateDictionary`` see the entries of a Swift dictionary whatever its key and value types.
private protocol DictionaryEntries {
    var anyEntries: [(key: AnyHashable, value: Any)] { get }
}

extension Dictionary: DictionaryEntries {
    fileprivate var anyEntries: [(key: AnyHashable, value: Any)] {
        map { (AnyHashable($0.key), $0.value as Any) }
    }
}
