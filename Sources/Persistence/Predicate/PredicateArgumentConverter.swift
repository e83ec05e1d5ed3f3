import Foundation

/// Turns the `Any?` arguments of a format string, and the values of substitution variables, into operands when the
/// predicate is made, so that a ``FetchPredicate`` never stores `Any` and stays `Sendable`.
///
/// `%@` and variables accept: nil, `NSNull`, ``PersistentValue``, `String`, every integer type, `Double`, `Float`,
/// `Bool`, `NSNumber`, `Date`, `UUID`, `URL`, `Data`, `Decimal`, ``ManagedObjectID``, any
/// ``PredicateObjectConvertible`` (by its ID), any ``PredicateConstantConvertible`` (by its constant), and arrays or
/// sets of those (one level, for `IN` and `BETWEEN`).
enum PredicateArgumentConverter {
    /// Why a value was refused; the caller adds which argument or variable it was.
    struct Failure: Error {
        var message: String
    }

    /// The operand for a `%@` argument or a substitution variable's value.
    static func operand(for argument: Any?) throws(Failure) -> PredicateOperand {
        try operand(for: argument, allowCollection: true)
    }

    /// The constant for a `%d`/`%i`/`%u` argument: any integer type, or an NSNumber holding one.
    static func integer(for argument: Any?) throws(Failure) -> PersistentValue {
        let value = unwrapped(argument)
        switch value {
        case let number as NSNumber where !isFloatingPoint(number):
            return try integer(fromNSNumber: number)
        case let integer as any BinaryInteger:
            guard let exact = Int64(exactly: integer) else {
                throw Failure(message: "the integer \(integer) does not fit in 64 bits")
            }
            return .integer(exact)
        case let bool as Bool:
            return .integer(bool ? 1 : 0)
        case let stored as PersistentValue:
            if case .integer = stored { return stored }
            throw Failure(message: "expects an integer, got \(stored.kindName) \(stored)")
        default:
            throw Failure(message: "expects an integer, got \(typeName(value))")
        }
    }

    /// The constant for a `%f` argument: any floating-point or integer type, or an NSNumber.
    static func double(for argument: Any?) throws(Failure) -> PersistentValue {
        let value = unwrapped(argument)
        switch value {
        case let number as NSNumber: return .double(number.doubleValue)
        case let double as Double: return .double(double)
        case let float as any BinaryFloatingPoint: return .double(Double(float))
        case let integer as any BinaryInteger: return .double(Double(integer))
        case let stored as PersistentValue:
            switch stored {
            case .double: return stored
            case .integer(let i): return .double(Double(i))
            default: throw Failure(message: "expects a number, got \(stored.kindName) \(stored)")
            }
        default:
            throw Failure(message: "expects a floating-point number, got \(typeName(value))")
        }
    }

    /// The string of a `%s` or `%K` argument.
    static func string(for argument: Any?) -> String? {
        switch unwrapped(argument) {
        case let string as String: return string
        case let substring as Substring: return String(substring)
        case let stored as PersistentValue:
            if case .string(let string) = stored { return string }
            return nil
        default: return nil
        }
    }

    /// Why `argument` cannot stand for `%@` when it is given one by one, as a C vararg is on Apple: a Swift integer,
    /// floating-point number or Bool. Core Data's `NSPredicate(format:_:)` passes such a value as a number, and `%@`
    /// ("a var arg substitution for an object value", Apple's "Predicate Format String Syntax") reads it as an object
    /// pointer — on a device the app crashes. Nil for any other value: an `NSNumber` is an object. The dynamic type is
    /// tested exactly, since on Linux an `Int` in an `Any` also casts to `NSNumber`.
    static func objectPlaceholderRefusal(for argument: Any?) -> String? {
        guard let value = unwrapped(argument) else { return nil }
        let type = type(of: value)
        let instead: String
        if let bool = value as? Bool, type == Bool.self {
            instead = "pass NSNumber(value: \(bool)) for %@"
        } else if type is any BinaryInteger.Type {
            instead = "pass NSNumber(value: \(value)) for %@, or write %d (%ld for a 64-bit Int) in its place"
        } else if type is any BinaryFloatingPoint.Type {
            instead = "pass NSNumber(value: \(value)) for %@, or write %f in its place"
        } else {
            return nil
        }
        return "a Swift \(typeName(value)) (\(value)) for %@, which stands for an object. Core Data's "
            + "NSPredicate(format:) takes its arguments as C varargs and reads a number or Bool given for %@ as an "
            + "object pointer: on a device the app crashes. Instead, \(instead)"
    }

    /// The name of the argument's type, for messages.
    static func typeName(_ argument: Any?) -> String {
        guard let value = unwrapped(argument) else { return "nil" }
        return String(describing: type(of: value))
    }

    // MARK: Private

    private static func operand(for argument: Any?, allowCollection: Bool) throws(Failure) -> PredicateOperand {
        guard let value = unwrapped(argument) else { return .constant(.null) }
        switch value {
        case let stored as PersistentValue:
            return .constant(stored)
        case let id as ManagedObjectID:
            return .object(id)
        case let convertible as any PredicateConstantConvertible:
            return .constant(convertible.predicateConstant)
        case let object as any PredicateObjectConvertible:
            guard let id = object.predicateObjectID else {
                throw Failure(message: "\(typeName(object)) has no object ID, so it cannot stand for an object")
            }
            return .object(id)
        default:
            if let stored = try scalar(value) { return .constant(stored) }
            if let entries = PredicateDictionary.entries(of: value) {
                // A dictionary stands for its values, as `IN` reads one in Apple's format syntax.
                guard allowCollection else {
                    throw Failure(message: "a collection inside a collection (\(typeName(value))) is not supported")
                }
                var members: [PredicateOperand] = []
                for (_, element) in entries {
                    members.append(try operand(for: element, allowCollection: false))
                }
                return .aggregate(members)
            }
            if let collection = value as? any Sequence {
                guard allowCollection else {
                    throw Failure(message: "a collection inside a collection (\(typeName(value))) is not supported")
                }
                var members: [PredicateOperand] = []
                for element in elements(of: collection) {
                    members.append(try operand(for: element, allowCollection: false))
                }
                return .aggregate(members)
            }
            throw Failure(message: "\(typeName(value)) is not a type predicates support")
        }
    }

    /// The value `value` is when it is one of the plain kinds a predicate compares — nil or `NSNull`, a string,
    /// a number of any type (an `NSNumber` as the number it holds), a Boolean, a date, a UUID, a URL, data, a
    /// decimal, a ``PersistentValue`` — or nil when it is not (an object, a collection, a value of another type).
    ///
    /// - Throws: ``Failure`` for an integer that does not fit in 64 bits.
    static func scalar(_ value: Any?) throws(Failure) -> PersistentValue? {
        guard let value = unwrapped(value) else { return .null }
        switch value {
        case is NSNull:
            return .null
        case let decimal as NSDecimalNumber where type(of: value) is NSDecimalNumber.Type:
            return .decimal(decimal.decimalValue)
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            // Checked before the Swift types, because on Linux an NSNumber holding 1 also casts to Bool. The type
            // test keeps Swift values that merely bridge to NSNumber (Decimal, Int) out of this case.
            return try constant(fromNSNumber: number)
        default:
            if let stored = PersistentValue(any: value) { return stored }
            // CGFloat bridges to NSNumber on Apple platforms.
            if let float = value as? CGFloat { return .double(Double(float)) }
            if let integer = value as? any BinaryInteger {
                // Only an unsigned integer above Int64.max gets here.
                throw Failure(message: "the integer \(integer) does not fit in 64 bits")
            }
            return nil
        }
    }

    private static func elements<S: Sequence>(of sequence: S) -> [Any] {
        sequence.map { $0 as Any }
    }

    /// The value inside any number of `Optional` layers, or nil.
    static func unwrapped(_ argument: Any?) -> Any? {
        guard var value = argument else { return nil }
        while let optional = value as? any OptionalWrapper {
            guard let inner = optional.wrappedAny else { return nil }
            value = inner
        }
        return value
    }

    private static func isFloatingPoint(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "f" || type == "d"
    }

    private static func constant(fromNSNumber number: NSNumber) throws(Failure) -> PersistentValue {
        if isFloatingPoint(number) { return .double(number.doubleValue) }
        // A Boolean NSNumber reports the C type `char` ("c"); an integer 0 or 1 stored as char becomes a Boolean,
        // which compares equal to the same integer anyway.
        let type = String(cString: number.objCType)
        if type == "c" || type == "B", number.int64Value == 0 || number.int64Value == 1 {
            return .bool(number.boolValue)
        }
        return try integer(fromNSNumber: number)
    }

    private static func integer(fromNSNumber number: NSNumber) throws(Failure) -> PersistentValue {
        let type = String(cString: number.objCType)
        if type == "Q" || type == "L" || type == "I", number.uint64Value > UInt64(Int64.max) {
            throw Failure(message: "the integer \(number.uint64Value) does not fit in 64 bits")
        }
        return .integer(number.int64Value)
    }
}

/// Lets the converter see through `Optional` values boxed in `Any` (as in `[String?]`).
private protocol OptionalWrapper {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalWrapper {
    fileprivate var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}
