import Foundation

extension PredicateValue {
    /// What a predicate sees of `value`: the one place where values enter the in-memory evaluator, both the object
    /// `evaluate(with:)` is given and every value read from a dictionary on the way.
    ///
    /// As NSPredicate sees a value through key-value coding:
    /// - nil and `NSNull` are nil; strings (`Substring` too, as Apple bridges it to `NSString`), numbers of every
    ///   type and `NSNumber`, Booleans, dates, UUIDs, URLs, data and decimals (`NSDecimalNumber` too) are values;
    /// - a managed object (or another ``PredicateEvaluable``) is an object whose keys are read as today;
    /// - a dictionary (`[String: Any]`, `NSDictionary`, any `Dictionary`) is an object whose keys are its keys
    ///   (see ``PredicateDictionary``);
    /// - an array, a set, an ordered set (`[Any]`, `Set`, `NSArray`, `NSSet`, `NSOrderedSet`) is a collection of its
    ///   elements, each converted the same way;
    /// - anything else — a Swift struct, enum or class of another type, a managed object ID — is opaque: not nil,
    ///   with no key to read and nothing to compare. NSPredicate reads values through key-value coding, which such a
    ///   value does not support (Apple raises `NSUnknownKeyException` for its first key); reading a key of it is an
    ///   evaluation error here, naming its type and the key.
    ///
    /// - Throws: ``PredicateEvaluator/Failure`` for an integer that does not fit in 64 bits.
    init(converting value: Any?) throws {
        // Managed objects first: a fetch evaluates every unsaved object of the entity through here.
        if let object = value as? any PredicateEvaluable {
            self = .object(object)
            return
        }
        let scalar: PersistentValue?
        do {
            scalar = try PredicateArgumentConverter.scalar(value)
        } catch {
            throw PredicateEvaluator.Failure(message: error.message, keyPath: nil)
        }
        if let scalar {
            self = .value(scalar)
            return
        }
        // `scalar` is nil only for a value that is there (nil is a scalar), so it unwraps.
        let present = PredicateArgumentConverter.unwrapped(value)!
        switch present {
        case let object as any PredicateEvaluable:
            self = .object(object)  // one inside an Optional
        case let set as NSOrderedSet:
            self = .collection(try set.array.map { try PredicateValue(converting: $0) })
        default:
            if let dictionary = PredicateDictionary(present) {
                self = .object(dictionary)
            } else if let elements = Self.elements(of: present) {
                self = .collection(try elements.map { try PredicateValue(converting: $0) })
            } else {
                self = .opaque(typeName: String(describing: type(of: present)))
            }
        }
    }

    /// The elements of an array or a set, Swift's or Foundation's; nil for anything else (strings and data, which
    /// are sequences too, never get here).
    private static func elements(of value: Any) -> [Any]? {
        if let collection = value as? any PlainCollection { return collection.anyElements }
        if let array = value as? NSArray { return array.map { $0 } }
        if let set = value as? NSSet { return set.map { $0 } }
        return nil
    }
}

/// The Swift collections that bridge to `NSArray` and `NSSet` on Apple platforms, whatever their element type.
private protocol PlainCollection {
    var anyElements: [Any] { get }
}

extension Array: PlainCollection {
    fileprivate var anyElements: [Any] { map { $0 as Any } }
}

extension Set: PlainCollection {
    fileprivate var anyElements: [Any] { map { $0 as Any } }
}
