import Foundation

/// Comparisons: which side is the key path, what it is compared with (a value, a list, another key path, an
/// object), and the arguments bound for them.
extension PredicateSQLCompiler {
    static func isPath(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .keyPath, .evaluatedObject, .collectionOperation, .subqueryCount: return true
        default: return false
        }
    }

    mutating func compileComparison(_ original: PredicateComparison, in scope: SQLScope) throws -> String {
        var comparison = original
        for operand in [comparison.left, comparison.right] where Self.containsVariable(operand) {
            throw failure("the predicate still has a $variable; call withSubstitutionVariables(_:) before fetching")
        }
        if !Self.isPath(comparison.left) && Self.isPath(comparison.right) {
            switch comparison.operator {
            case .in:
                // `value IN path` is membership: some element of the path equals the value.
                comparison = PredicateComparison(comparison.right, .equalTo, comparison.left, modifier: .any, options: comparison.options)
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                comparison = PredicateComparison(comparison.right, Self.mirrored(comparison.operator), comparison.left,
                                                 modifier: comparison.modifier, options: comparison.options)
            case .contains:
                // `"text" CONTAINS name`: the name is a substring of the constant.
                let (leaf, wrap) = try resolveOperand(comparison.right, in: scope, modifier: comparison.modifier)
                guard case .value(let sql, .string) = leaf, case .constant(.string(let text)) = comparison.left else {
                    throw failure("CONTAINS with a constant on the left needs a string on both sides")
                }
                arguments.append(.text(text))
                let inner = stringCall(.contains, comparison.options, "?", sql)
                return wrap?(inner) ?? inner
            default:
                throw failure("\(comparison.operator.symbol) needs the key path on its left side")
            }
        }
        guard Self.isPath(comparison.left) else {
            throw failure("a comparison needs a key path or SELF on one side (both sides are constants)")
        }
        let (leaf, wrap) = try resolveOperand(comparison.left, in: scope, modifier: comparison.modifier)
        let fanned = wrap != nil
        let inner = try compileLeaf(leaf, comparison, fanned: fanned)
        return wrap?(inner) ?? inner
    }

    static func mirrored(_ op: PredicateComparison.Operator) -> PredicateComparison.Operator {
        switch op {
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return op
        }
    }

    static func containsVariable(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .variable: return true
        case .aggregate(let items): return items.contains(where: containsVariable)
        default: return false
        }
    }

    mutating func compileLeaf(_ leaf: Leaf, _ comparison: PredicateComparison, fanned: Bool) throws -> String {
        var op = comparison.operator
        // On the objects of a to-many (`actors CONTAINS %@`), CONTAINS is membership. On values reached through one
        // (`actors.name CONTAINS %@`) it stays a substring test of each value, an implicit ANY.
        if case .object = leaf, fanned, comparison.modifier == .direct, op == .contains { op = .equalTo }
        switch leaf {
        case .value(let sql, let type):
            switch comparison.right {
            case .constant(let value):
                return try compareValue(sql, type, op, comparison.options, value)
            case .aggregate(let items):
                return try compareValueToList(sql, type, op, comparison.options, items)
            case .keyPath, .collectionOperation, .subqueryCount:
                let (other, wrap) = try resolveOperand(comparison.right, in: root!, modifier: .direct)
                guard wrap == nil, case .value(let otherSQL, let otherType) = other else {
                    throw failure("the right side of \(op.symbol) must be an attribute reached through to-one relationships")
                }
                return try compareColumns(sql, type, op, comparison.options, otherSQL, otherType)
            case .object, .evaluatedObject:
                throw failure("\(op.symbol) compares a \(type.rawValue) attribute with an object")
            case .variable:
                throw failure("unresolved $variable")
            }
        case .object(let keySQL, let entity):
            switch (op, comparison.right) {
            case (.equalTo, .object(let id)):
                return objectEquals(keySQL, entity, id)
            case (.notEqualTo, .object(let id)):
                return "\(keySQL) IS NOT " + (objectKey(entity, id).map { bind(.integer($0)) } ?? "NULL")
            case (.equalTo, .constant(.null)):
                return "\(keySQL) IS NULL"
            case (.notEqualTo, .constant(.null)):
                return "\(keySQL) IS NOT NULL"
            case (.in, .aggregate(let items)):
                var keys: [SQLiteValue] = []
                var includesNil = false
                for item in items {
                    switch item {
                    case .object(let id): if let key = objectKey(entity, id) { keys.append(.integer(key)) }
                    case .constant(.null): includesNil = true
                    default: throw failure("IN compares objects with a list of objects")
                    }
                }
                var parts = membership(keySQL, keys)
                if includesNil { parts.append("\(keySQL) IS NULL") }
                return Self.anyOf(parts)
            case (.equalTo, .keyPath), (.notEqualTo, .keyPath),
                 (.equalTo, .evaluatedObject), (.notEqualTo, .evaluatedObject):
                let (other, wrap) = try resolveOperand(comparison.right, in: root!, modifier: .direct)
                guard wrap == nil, case .object(let otherSQL, _) = other else {
                    throw failure("\(op.symbol) compares an object with a non-object")
                }
                return op == .equalTo ? "\(keySQL) IS \(otherSQL)" : "\(keySQL) IS NOT \(otherSQL)"
            default:
                throw failure("objects support ==, !=, IN and CONTAINS only (\(op.symbol) given)")
            }
        }
    }

    func objectKey(_ entity: EntityDescription, _ id: ManagedObjectID) -> Int64? {
        id.entityName == entity.entityName ? id.primaryKey : nil
    }

    mutating func objectEquals(_ keySQL: String, _ entity: EntityDescription, _ id: ManagedObjectID) -> String {
        // An unsaved object, or one of another entity, is never in the store: no key equals it, and a nil one is
        // unknown, as with any value.
        guard let key = objectKey(entity, id) else { return "(CASE WHEN \(keySQL) IS NOT NULL THEN 0 END)" }
        return "\(keySQL) = \(bind(.integer(key)))"
    }

    /// Lists longer than this go to SQL as one JSON argument rather than one argument per value, which would meet
    /// SQLite's limit on arguments (32,766) and make long statements to prepare.
    static let longList = 32

    /// Conditions that hold when `sql` is one of `members` (exact comparison): `sql IN (?, ?, …)` for a short list;
    /// for a long one, `sql IN (SELECT value FROM json_each(?))` over a bound JSON array, with the values JSON
    /// cannot carry (blobs, text holding NUL) compared by their bytes in hexadecimal, and infinities one by one.
    mutating func membership(_ sql: String, _ members: [SQLiteValue]) -> [String] {
        if members.isEmpty { return [] }
        if members.count <= Self.longList {
            return ["\(sql) IN (\(members.map { bind($0) }.joined(separator: ", ")))"]
        }
        var json: [String] = []
        var hex: [String] = []
        var parts: [String] = []
        for member in members {
            if let text = Self.json(member) {
                json.append(text)
            } else if let bytes = Self.hex(member) {
                hex.append(bytes)
            } else {
                parts.append("\(sql) = \(bind(member))")  // an infinity
            }
        }
        if !json.isEmpty { parts.append("\(sql) IN (SELECT value FROM json_each(\(bind(.text("[" + json.joined(separator: ",") + "]")))))") }
        if !hex.isEmpty {
            let list = "[" + hex.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            // Unknown for nil, as `IN` is.
            parts.append("(CASE WHEN typeof(\(sql)) IN ('text', 'blob') THEN hex(\(sql)) IN (SELECT value FROM json_each(\(bind(.text(list))))) "
                + "WHEN \(sql) IS NOT NULL THEN 0 END)")
        }
        return parts
    }

    /// Conditions that hold when the string `sql` equals one of `members` under `options`: one call per value for a
    /// short list, a search of a bound JSON array for a long one (text holding NUL, which JSON here cannot carry,
    /// keeps a call of its own).
    mutating func foldedMembership(_ sql: String, _ options: StringComparison.Options, _ members: [SQLiteValue]) -> [String] {
        if members.count <= Self.longList {
            return members.map { stringCall(.equal, options, sql, bind($0)) }
        }
        var json: [String] = []
        var others: [SQLiteValue] = []
        for member in members {
            if let text = Self.json(member) { json.append(text) } else { others.append(member) }
        }
        // Arguments are bound in the order their `?` appear.
        var parts: [String] = []
        if !json.isEmpty {
            let list = bind(.text("[" + json.joined(separator: ",") + "]"))
            // Unknown for nil, as `IN` is (EXISTS alone would be false).
            parts.append("(CASE WHEN \(sql) IS NOT NULL THEN EXISTS (SELECT 1 FROM json_each(\(list)) WHERE \(stringCall(.equal, options, sql, "value"))) END)")
        }
        return parts + others.map { stringCall(.equal, options, sql, bind($0)) }
    }

    /// A value as a JSON literal that `json_each` reads back as the same SQLite value, or nil when there is none.
    static func json(_ value: SQLiteValue) -> String? {
        switch value {
        case .integer(let i): return String(i)
        case .real(let d): return d.isFinite ? "\(d)" : nil
        case .text(let text):
            // SQLite 3.40's JSON reader ends a string at an escaped NUL.
            if text.utf8.contains(0) { return nil }
            var literal = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": literal += "\\\""
                case "\\": literal += "\\\\"
                case _ where scalar.value < 0x20: literal += String(format: "\\u%04x", scalar.value)
                default: literal.unicodeScalars.append(scalar)
                }
            }
            return literal + "\""
        case .null, .blob: return nil
        }
    }

    /// The bytes of text or a blob as SQLite's `hex()` writes them, or nil for other values.
    static func hex(_ value: SQLiteValue) -> String? {
        let bytes: [UInt8]
        switch value {
        case .text(let text): bytes = Array(text.utf8)
        case .blob(let data): bytes = Array(data)
        default: return nil
        }
        return bytes.map { String(format: "%02X", $0) }.joined()
    }

    mutating func bind(_ value: SQLiteValue) -> String {
        arguments.append(value)
        return "?"
    }
}
