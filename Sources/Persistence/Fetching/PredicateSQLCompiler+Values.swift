import Foundation

/// Values: how one column compares with one value or a list of values of its attribute type, nil, NaN and
/// string options included, and how a value is stored.
extension PredicateSQLCompiler {
    mutating func compareValue(_ sql: String, _ type: AttributeType, _ op: PredicateComparison.Operator,
                                       _ options: StringComparison.Options, _ value: PersistentValue) throws -> String {
        if value.isNull {
            switch op {
            case .equalTo: return "\(sql) IS NULL"
            case .notEqualTo: return "\(sql) IS NOT NULL"
            default: return "0"
            }
        }
        try checkKinds(type, value, op)
        if Self.isNaN(value) {
            // SQLite would bind NaN as NULL. In memory NaN equals nothing and orders with nothing, so only != holds,
            // for every value including nil.
            return op == .notEqualTo ? "1" : "0"
        }
        if type == .string, case .string(let text) = value {
            let folds = !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
            switch op {
            case .equalTo where !folds: return "\(sql) = \(bind(.text(text)))"
            case .notEqualTo where !folds: return "\(sql) IS NOT \(bind(.text(text)))"
            case .notEqualTo: return "(\(sql) IS NULL OR NOT \(stringCall(.equal, options, sql, bind(.text(text)))))"
            case .lessThan where !folds: return "\(sql) < \(bind(.text(text)))"
            case .lessThanOrEqualTo where !folds: return "\(sql) <= \(bind(.text(text)))"
            case .greaterThan where !folds: return "\(sql) > \(bind(.text(text)))"
            case .greaterThanOrEqualTo where !folds: return "\(sql) >= \(bind(.text(text)))"
            case .in:
                // `name IN "text"`: the name is a substring of the text.
                return stringCall(.contains, options, bind(.text(text)), sql)
            case .between:
                throw failure("BETWEEN needs a list of two bounds")
            default:
                return stringCall(Self.code(for: op)!, options, sql, bind(.text(text)))
            }
        }
        let column = type == .decimal ? "CAST(\(sql) AS REAL)" : sql
        let argument = bind(Self.sqlValue(value))
        switch op {
        case .equalTo: return "\(column) = \(argument)"
        case .notEqualTo: return "\(column) IS NOT \(argument)"
        case .lessThan: return "\(column) < \(argument)"
        case .lessThanOrEqualTo: return "\(column) <= \(argument)"
        case .greaterThan: return "\(column) > \(argument)"
        case .greaterThanOrEqualTo: return "\(column) >= \(argument)"
        default: throw failure("\(op.symbol) is not defined for \(type.rawValue) values")
        }
    }

    mutating func compareValueToList(_ sql: String, _ type: AttributeType, _ op: PredicateComparison.Operator,
                                             _ options: StringComparison.Options, _ items: [PredicateOperand]) throws -> String {
        var values: [PersistentValue] = []
        for item in items {
            guard case .constant(let value) = item else { throw failure("a list compared with a \(type.rawValue) attribute must hold values") }
            values.append(value)
        }
        let folds = type == .string && !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
        let column = type == .decimal ? "CAST(\(sql) AS REAL)" : sql
        switch op {
        case .between:
            guard values.count == 2 else { throw failure("BETWEEN needs exactly two bounds, got \(values.count)") }
            if values.contains(where: \.isNull) { return "0" }
            for value in values { try checkKinds(type, value, .lessThan) }
            if values.contains(where: Self.isNaN) { return "0" }
            if folds {
                let low = stringCall(.greaterOrEqual, options, sql, bind(Self.sqlValue(values[0])))
                let high = stringCall(.lessOrEqual, options, sql, bind(Self.sqlValue(values[1])))
                return "(\(low) AND \(high))"
            }
            let low = bind(Self.sqlValue(values[0]))
            return "\(column) BETWEEN \(low) AND \(bind(Self.sqlValue(values[1])))"
        case .in:
            var parts: [String] = []
            var members: [SQLiteValue] = []
            var includesNil = false
            for value in values {
                if value.isNull { includesNil = true; continue }
                try checkKinds(type, value, .equalTo)
                if Self.isNaN(value) { continue }  // equal to nothing
                members.append(Self.sqlValue(value))
            }
            if folds {
                parts += foldedMembership(sql, options, members)
            } else {
                parts += membership(column, members)
            }
            if includesNil { parts.append("\(sql) IS NULL") }
            return Self.anyOf(parts)
        default:
            throw failure("\(op.symbol) cannot take a list on its right (only IN and BETWEEN do)")
        }
    }

    func compareColumns(_ left: String, _ leftType: AttributeType, _ op: PredicateComparison.Operator,
                                _ options: StringComparison.Options, _ right: String, _ rightType: AttributeType) throws -> String {
        guard Self.kind(of: leftType) == Self.kind(of: rightType) else {
            throw failure("\(op.symbol) compares a \(leftType.rawValue) attribute with a \(rightType.rawValue) attribute")
        }
        if leftType == .string {
            let folds = !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
            if !folds, let symbol = Self.sqlSymbol(op) { return "\(left) \(symbol) \(right)" }
            if op == .equalTo || op == .notEqualTo {
                // Nil equals only nil, as in memory; the string function alone would answer NULL for it.
                let equal = "(CASE WHEN \(left) IS NULL OR \(right) IS NULL THEN \(left) IS NULL AND \(right) IS NULL "
                    + "ELSE \(stringCall(.equal, options, left, right)) END)"
                return op == .equalTo ? equal : "NOT \(equal)"
            }
            guard let code = Self.code(for: op) else { throw failure("\(op.symbol) is not defined between two strings") }
            return stringCall(code, options, left, right)
        }
        guard let symbol = Self.sqlSymbol(op) else { throw failure("\(op.symbol) is not defined for \(leftType.rawValue) values") }
        return "\(left) \(symbol) \(right)"
    }

    func stringCall(_ code: StoreFunctions.Code, _ options: StringComparison.Options, _ left: String, _ right: String) -> String {
        "\(StoreFunctions.stringFunction(code, options))(\(left), \(right))"
    }

    static func sqlSymbol(_ op: PredicateComparison.Operator) -> String? {
        switch op {
        // Between two key paths, where both may be nil: nil equals only nil, as in memory.
        case .equalTo: return "IS"
        case .notEqualTo: return "IS NOT"
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqualTo: return ">="
        default: return nil
        }
    }

    static func code(for op: PredicateComparison.Operator) -> StoreFunctions.Code? {
        switch op {
        case .equalTo: return .equal
        case .lessThan: return .less
        case .lessThanOrEqualTo: return .lessOrEqual
        case .greaterThan: return .greater
        case .greaterThanOrEqualTo: return .greaterOrEqual
        case .contains: return .contains
        case .beginsWith: return .beginsWith
        case .endsWith: return .endsWith
        case .like: return .like
        case .matches: return .matches
        default: return nil
        }
    }

    enum ValueKind { case number, string, date, uuid, uri, data }

    static func kind(of type: AttributeType) -> ValueKind {
        switch type {
        case .string: return .string
        case .integer16, .integer32, .integer64, .double, .float, .boolean, .decimal: return .number
        case .date: return .date
        case .uuid: return .uuid
        case .uri: return .uri
        case .binaryData, .transformable, .undefined: return .data
        }
    }

    static func kind(of value: PersistentValue) -> ValueKind? {
        switch value {
        case .string: return .string
        case .integer, .double, .bool, .decimal: return .number
        case .date: return .date
        case .uuid: return .uuid
        case .uri: return .uri
        case .data: return .data
        case .null: return nil
        }
    }

    /// The same type rules as in memory: mixing kinds is an error, and only numbers, strings and dates order.
    func checkKinds(_ type: AttributeType, _ value: PersistentValue, _ op: PredicateComparison.Operator) throws {
        let attributeKind = Self.kind(of: type)
        guard Self.kind(of: value) == attributeKind else {
            throw failure("\(op.symbol) compares a \(type.rawValue) attribute with \(value) (\(value.kindName))")
        }
        if op.isStringPattern || op == .contains, attributeKind != .string {
            throw failure("\(op.symbol) needs strings, but the attribute is \(type.rawValue)")
        }
        let orders: Set<PredicateComparison.Operator> = [.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between]
        if orders.contains(op), ![.number, .string, .date].contains(attributeKind) {
            throw failure("\(op.symbol) cannot order \(type.rawValue) values; only == and != apply")
        }
    }

    /// `true` for a NaN double or decimal, which SQLite cannot hold (it binds NULL).
    static func isNaN(_ value: PersistentValue) -> Bool {
        switch value {
        case .double(let d): return d.isNaN
        case .decimal(let d): return d.isNaN
        default: return false
        }
    }

    static func sqlValue(_ value: PersistentValue) -> SQLiteValue {
        switch value {
        case .decimal(let v): return .real(Double(truncating: v as NSNumber))
        case .integer, .double, .bool, .string, .date, .uuid, .uri, .data, .null:
            // Every other kind is stored exactly as an attribute of its own type stores it.
            return AttributeType.string.sqliteValue(value)
        }
    }
}
