import Foundation

/// Compiles a predicate's tree (``PredicateNode``) to SQL for the store, with the same meaning the
/// in-memory evaluator gives it (see ``PredicateComparison``).
///
/// - Values are always bound as arguments, never written into the SQL.
/// - Every comparison yields 0 or 1, never NULL, so `NOT` behaves as in memory when a value is nil.
/// - Key paths through to-one relationships become `LEFT JOIN`s; through to-many relationships, `EXISTS`
///   subqueries (`NOT EXISTS … NOT …` for `ALL`); collection operators and `SUBQUERY(…).@count`, scalar subqueries.
/// - String operators run ``StringComparison`` through the `PST_STRING_<operator>_<folding>` SQL functions; plain
///   `==`, `!=` and ordering without options use SQLite's own byte comparison, which is the same order.
/// - The SQL stays within SQLite's limits wherever memory evaluation works: its parser overflows at a few dozen
///   nested parentheses and its expression trees at 1,000 levels (a chain of `a OR b OR …` is that deep), so deep
///   or long ANDs, ORs and NOTs become flat `CASE WHEN … THEN … END` chains, and long `IN` lists one bound JSON
///   array read with `json_each`.
struct PredicateSQLCompiler {
    let schema: StoreSchema
    /// The predicate's format, for error messages.
    let format: String
    private(set) var arguments: [SQLiteValue] = []
    private var aliasCount = 0
    private var root: SQLScope?

    init(schema: StoreSchema, format: String) {
        self.schema = schema
        self.format = format
    }

    /// What a key path ends at.
    private enum Leaf {
        /// An SQL expression of an attribute type (a column, or a collection operator's subquery).
        case value(String, AttributeType)
        /// An SQL expression giving an object's primary key (a to-one's column, or `Z_PK` for `SELF`).
        case object(String, EntityDescription)
    }

    mutating func compile(_ expression: PredicateNode, in scope: SQLScope) throws -> String {
        if root == nil { root = scope }
        switch expression {
        case .constant(let value):
            return value ? "1" : "0"
        case .and(let children) where Self.isSmall(expression, children.count):
            var parts: [String] = []
            for child in children { parts.append(try compile(child, in: scope)) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .or(let children) where Self.isSmall(expression, children.count):
            var parts: [String] = []
            for child in children { parts.append(try compile(child, in: scope)) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .not(let child) where Self.isSmall(expression, 1):
            return "NOT (" + (try compile(child, in: scope)) + ")"
        case .and, .or, .not:
            return try compileChain(expression, in: scope)
        case .comparison(let comparison):
            return "IFNULL(" + (try compileComparison(comparison, in: scope)) + ", 0)"
        case .tooDeep(let depth):
            throw failure(PredicateNode.tooDeepMessage(depth))
        }
    }

    /// Plain infix SQL is kept for compounds this shallow and short, which SQLite parses easily.
    private static func isSmall(_ node: PredicateNode, _ count: Int) -> Bool {
        count <= 32 && node.depth <= 4
    }

    /// A deep or long compound as one flat `CASE`. It follows one "spine" down the tree — at each AND or OR the
    /// deepest child, through NOTs by flipping what the chain answers — and turns every other child into a
    /// `WHEN`: at an OR, a true child decides the answer; at an AND, a false one. What the spine ends at is the
    /// `ELSE`. Only a second deep child of one node nests, so nesting grows with how bushy the tree is, not how
    /// deep. The `WHEN`s run in order and stop at the first that holds, as the evaluator's AND and OR stop early.
    private mutating func compileChain(_ expression: PredicateNode, in scope: SQLScope) throws -> String {
        var whens: [String] = []
        var node = expression
        var negated = false
        var last: String?
        while last == nil {
            switch node {
            case .not(let inner):
                negated.toggle()
                node = inner
            case .and(let children), .or(let children):
                let isOr: Bool
                if case .or = node { isOr = true } else { isOr = false }
                let depths = children.map(\.depth)
                let deepest = depths.indices.max { depths[$0] < depths[$1] }!
                let spine = depths[deepest] > 4 ? deepest : nil
                // What the whole chain answers when one child decides the node.
                let decided = (isOr != negated) ? "1" : "0"
                for (index, child) in children.enumerated() where index != spine {
                    let sql = try compile(child, in: scope)
                    whens.append(isOr ? "WHEN \(sql) THEN \(decided)" : "WHEN NOT \(sql) THEN \(decided)")
                }
                if let spine {
                    node = children[spine]
                } else {
                    // No child decided: an OR is false, an AND true.
                    last = (isOr == negated) ? "1" : "0"
                }
            default:
                let sql = try compile(node, in: scope)
                last = negated ? "NOT \(sql)" : sql
            }
        }
        guard !whens.isEmpty else { return "(\(last!))" }
        return "(CASE " + whens.joined(separator: " ") + " ELSE \(last!) END)"
    }

    /// True when any of `parts` (each 0 or 1) is: `0` for none, a plain OR for a few, a flat CASE for many.
    private static func anyOf(_ parts: [String]) -> String {
        switch parts.count {
        case 0: return "0"
        case 1: return parts[0]
        case ...32: return "(" + parts.joined(separator: " OR ") + ")"
        default: return "(CASE " + parts.map { "WHEN \($0) THEN 1" }.joined(separator: " ") + " ELSE 0 END)"
        }
    }

    /// The column to sort by for a key path through to-one relationships.
    mutating func sortColumn(_ path: [String], in scope: SQLScope) throws -> String {
        if root == nil { root = scope }
        let (leaf, wrap) = try resolve(path, in: scope, modifier: .direct, fanned: false)
        guard wrap == nil, case .value(let sql, _) = leaf else {
            throw failure("cannot sort by '\(path.joined(separator: "."))': sort keys must be attributes, reached through to-one relationships only")
        }
        return sql
    }

    // MARK: - Comparisons

    private static func isPath(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .keyPath, .evaluatedObject, .collectionOperation, .subqueryCount: return true
        default: return false
        }
    }

    private mutating func compileComparison(_ original: PredicateComparison, in scope: SQLScope) throws -> String {
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

    private static func mirrored(_ op: PredicateComparison.Operator) -> PredicateComparison.Operator {
        switch op {
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return op
        }
    }

    private static func containsVariable(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .variable: return true
        case .aggregate(let items): return items.contains(where: containsVariable)
        default: return false
        }
    }

    private mutating func compileLeaf(_ leaf: Leaf, _ comparison: PredicateComparison, fanned: Bool) throws -> String {
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

    private func objectKey(_ entity: EntityDescription, _ id: ManagedObjectID) -> Int64? {
        id.entityName == entity.name ? id.primaryKey : nil
    }

    private mutating func objectEquals(_ keySQL: String, _ entity: EntityDescription, _ id: ManagedObjectID) -> String {
        // An unsaved object, or one of another entity, is never in the store.
        guard let key = objectKey(entity, id) else { return "0" }
        return "\(keySQL) = \(bind(.integer(key)))"
    }

    /// Lists longer than this go to SQL as one JSON argument rather than one argument per value, which would meet
    /// SQLite's limit on arguments (32,766) and make long statements to prepare.
    private static let longList = 32

    /// Conditions that hold when `sql` is one of `members` (exact comparison): `sql IN (?, ?, …)` for a short list;
    /// for a long one, `sql IN (SELECT value FROM json_each(?))` over a bound JSON array, with the values JSON
    /// cannot carry (blobs, text holding NUL) compared by their bytes in hexadecimal, and infinities one by one.
    private mutating func membership(_ sql: String, _ members: [SQLiteValue]) -> [String] {
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
            parts.append("(typeof(\(sql)) IN ('text', 'blob') AND hex(\(sql)) IN (SELECT value FROM json_each(\(bind(.text(list))))))")
        }
        return parts
    }

    /// Conditions that hold when the string `sql` equals one of `members` under `options`: one call per value for a
    /// short list, a search of a bound JSON array for a long one (text holding NUL, which JSON here cannot carry,
    /// keeps a call of its own).
    private mutating func foldedMembership(_ sql: String, _ options: StringComparison.Options, _ members: [SQLiteValue]) -> [String] {
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
            parts.append("EXISTS (SELECT 1 FROM json_each(\(list)) WHERE \(stringCall(.equal, options, sql, "value")))")
        }
        return parts + others.map { stringCall(.equal, options, sql, bind($0)) }
    }

    /// A value as a JSON literal that `json_each` reads back as the same SQLite value, or nil when there is none.
    private static func json(_ value: SQLiteValue) -> String? {
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
    private static func hex(_ value: SQLiteValue) -> String? {
        let bytes: [UInt8]
        switch value {
        case .text(let text): bytes = Array(text.utf8)
        case .blob(let data): bytes = Array(data)
        default: return nil
        }
        return bytes.map { String(format: "%02X", $0) }.joined()
    }

    private mutating func bind(_ value: SQLiteValue) -> String {
        arguments.append(value)
        return "?"
    }

    // MARK: - Values

    private mutating func compareValue(_ sql: String, _ type: AttributeType, _ op: PredicateComparison.Operator,
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

    private mutating func compareValueToList(_ sql: String, _ type: AttributeType, _ op: PredicateComparison.Operator,
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

    private func compareColumns(_ left: String, _ leftType: AttributeType, _ op: PredicateComparison.Operator,
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

    private func stringCall(_ code: StoreFunctions.Code, _ options: StringComparison.Options, _ left: String, _ right: String) -> String {
        "\(StoreFunctions.stringFunction(code, options))(\(left), \(right))"
    }

    private static func sqlSymbol(_ op: PredicateComparison.Operator) -> String? {
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

    private static func code(for op: PredicateComparison.Operator) -> StoreFunctions.Code? {
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

    private enum ValueKind { case number, string, date, uuid, uri, data }

    private static func kind(of type: AttributeType) -> ValueKind {
        switch type {
        case .string: return .string
        case .integer16, .integer32, .integer64, .double, .float, .boolean, .decimal: return .number
        case .date: return .date
        case .uuid: return .uuid
        case .uri: return .uri
        case .binaryData, .transformable: return .data
        }
    }

    private static func kind(of value: PersistentValue) -> ValueKind? {
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
    private func checkKinds(_ type: AttributeType, _ value: PersistentValue, _ op: PredicateComparison.Operator) throws {
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
    private static func isNaN(_ value: PersistentValue) -> Bool {
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

    // MARK: - Key paths

    private typealias Wrap = (String) -> String

    private mutating func resolveOperand(_ operand: PredicateOperand, in scope: SQLScope,
                                         modifier: PredicateComparison.Modifier) throws -> (Leaf, Wrap?) {
        switch operand {
        case .evaluatedObject:
            guard modifier == .direct else { throw failure("ANY and ALL need a key path through a to-many relationship, not SELF") }
            return (.object("\(scope.alias).Z_PK", scope.entity), nil)
        case .keyPath(let path):
            return try resolve(path, in: scope, modifier: modifier, fanned: false)
        case .collectionOperation(let op, let collection, let key):
            guard modifier == .direct else { throw failure("ANY and ALL cannot apply to \(op.name)") }
            return (try aggregate(op, collection: collection, key: key, in: scope), nil)
        case .subqueryCount(let collection, _, let predicate):
            guard modifier == .direct else { throw failure("ANY and ALL cannot apply to SUBQUERY(…).@count") }
            return (try subqueryCount(collection, predicate, in: scope), nil)
        default:
            throw failure("expected a key path")
        }
    }

    /// Follows `path` from `scope`: to-ones join, a to-many opens an `EXISTS` subquery for the rest of the path.
    private mutating func resolve(_ path: [String], in scope: SQLScope, modifier: PredicateComparison.Modifier,
                                  fanned: Bool) throws -> (Leaf, Wrap?) {
        var alias = scope.alias
        var entity = scope.entity
        var prefix = ""
        for (position, key) in path.enumerated() {
            let index = try propertyIndex(key, of: entity, path: path)
            let table = schema[entity]
            let isLast = position == path.count - 1
            if let attribute = entity.attributeAt[index] {
                guard isLast else {
                    throw failure("'\(path.joined(separator: "."))' continues past the attribute '\(key)'")
                }
                guard modifier == .direct || fanned else {
                    throw failure("ANY and ALL need a key path through a to-many relationship; '\(path.joined(separator: "."))' has none")
                }
                guard let column = table.columns[index] else { throw transientKey(key, of: entity, path: path) }
                return (.value("\(alias).\(column)", attribute.attributeType), nil)
            }
            let relationship = entity.relationshipAt[index]!
            if !relationship.isToMany {
                if isLast {
                    guard modifier == .direct || fanned else {
                        throw failure("ANY and ALL need a key path through a to-many relationship; '\(path.joined(separator: "."))' has none")
                    }
                    return (.object("\(alias).\(table.columns[index]!)", relationship.destinationEntity), nil)
                }
                prefix += key + "."
                alias = scope.join(path: prefix, from: alias, column: table.columns[index]!, to: relationship.destinationEntity) { newAlias() }
                entity = relationship.destinationEntity
                continue
            }
            let sub = SQLScope(alias: newAlias(), entity: relationship.destinationEntity)
            let (from, link) = fanOutSource(relationship, owner: entity, ownerAlias: alias, subAlias: sub.alias)
            let rest = Array(path[(position + 1)...])
            let (leaf, innerWrap): (Leaf, Wrap?)
            if rest.isEmpty {
                (leaf, innerWrap) = (.object("\(sub.alias).Z_PK", relationship.destinationEntity), nil)
            } else {
                (leaf, innerWrap) = try resolve(rest, in: sub, modifier: modifier, fanned: true)
            }
            let all = modifier == .all
            let wrap: Wrap = { inner in
                let body = innerWrap?(inner) ?? inner
                let joins = sub.joins.isEmpty ? "" : " " + sub.joins.joined(separator: " ")
                return all
                    ? "NOT EXISTS (SELECT 1 FROM \(from)\(joins) WHERE \(link) AND NOT IFNULL((\(body)), 0))"
                    : "EXISTS (SELECT 1 FROM \(from)\(joins) WHERE \(link) AND IFNULL((\(body)), 0))"
            }
            return (leaf, wrap)
        }
        return (.object("\(scope.alias).Z_PK", scope.entity), nil)
    }

    /// The `FROM` clause and the condition linking a to-many's destination rows (as `subAlias`) to their owner.
    private mutating func fanOutSource(_ relationship: RelationshipDescription, owner: EntityDescription,
                                       ownerAlias: String, subAlias: String) -> (from: String, link: String) {
        let ownerTable = schema[owner]
        let index = owner.propertyIndexByName[relationship.name]!
        let destination = schema[relationship.destinationEntity]
        if let join = ownerTable.joinTables[index] {
            let joinAlias = newAlias()
            return ("\(join.name) \(joinAlias) JOIN \(destination.name) \(subAlias) ON \(subAlias).Z_PK = \(joinAlias).\(join.otherColumn)",
                    "\(joinAlias).\(join.selfColumn) = \(ownerAlias).Z_PK")
        }
        let inverseIndex = relationship.destinationEntity.propertyIndexByName[relationship.inverseRelationship!.name]!
        return ("\(destination.name) \(subAlias)", "\(subAlias).\(destination.columns[inverseIndex]!) = \(ownerAlias).Z_PK")
    }

    /// `items.@count`, `items.@sum.price`…: a scalar subquery over the objects `collection` reaches.
    private mutating func aggregate(_ op: PredicateOperand.CollectionOperator, collection: [String], key: [String],
                                    in scope: SQLScope) throws -> Leaf {
        let source = try collectionSource(collection, in: scope, for: op.name)
        guard op != .count else {
            return .value("(SELECT COUNT(*) FROM \(source.from) WHERE \(source.condition))", .integer64)
        }
        let (leaf, wrap) = try resolve(key, in: source.scope, modifier: .direct, fanned: false)
        guard wrap == nil, case .value(let column, let type) = leaf else {
            throw failure("\(op.name).\(key.joined(separator: ".")) must reach an attribute through to-one relationships")
        }
        // Read after the key is resolved: its to-one joins were added to the source's scope.
        let rows = "FROM \(source.from) WHERE \(source.condition)"
        let numeric = type == .decimal ? "CAST(\(column) AS REAL)" : column
        switch op {
        case .sum: return .value("(SELECT IFNULL(SUM(\(numeric)), 0) \(rows))", type == .decimal ? .double : type)
        case .avg: return .value("(SELECT AVG(\(numeric)) \(rows))", .double)
        case .min: return .value("(SELECT MIN(\(column)) \(rows))", type)
        default: return .value("(SELECT MAX(\(column)) \(rows))", type)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count`: a scalar subquery counting the objects `collection` reaches
    /// that satisfy `predicate`, compiled with those objects as its root (where its key paths start).
    private mutating func subqueryCount(_ collection: [String], _ predicate: PredicateNode,
                                        in scope: SQLScope) throws -> Leaf {
        let source = try collectionSource(collection, in: scope, for: "SUBQUERY")
        let outerRoot = root
        root = source.scope
        defer { root = outerRoot }
        let condition = try compile(predicate, in: source.scope)
        return .value("(SELECT COUNT(*) FROM \(source.from) WHERE \(source.condition) AND \(condition))", .integer64)
    }

    /// The rows a to-many key path reaches, for a scalar subquery: one row per object at the end of the path, as
    /// the evaluator flattens nested to-manys (an object reached twice counts twice).
    struct CollectionSource {
        /// The tables of the path from its first to-many on, joined.
        var tables: String
        /// Links the first to-many's rows to the object being tested, and each later hop to the one before.
        var condition: String
        /// The objects at the end of the path; the joins a key path from them needs are added to it.
        var scope: SQLScope

        /// The tables with the joins added to ``scope`` so far.
        var from: String { scope.joins.isEmpty ? tables : tables + " " + scope.joins.joined(separator: " ") }
    }

    /// Follows `collection` from `scope`: to-ones before the first to-many join the outer query; from the first
    /// to-many on, every hop joins inside the subquery (inner joins: a nil to-one there reaches no objects, as in
    /// memory). `what` names the operator in errors.
    private mutating func collectionSource(_ collection: [String], in scope: SQLScope,
                                           for what: String) throws -> CollectionSource {
        var alias = scope.alias
        var entity = scope.entity
        var prefix = ""
        var tables: String?
        var conditions: [String] = []
        var endsAtToMany = false
        for name in collection {
            let index = try propertyIndex(name, of: entity, path: collection)
            guard let relationship = entity.relationshipAt[index] else {
                throw failure("\(what) needs a to-many relationship, but '\(name)' is an attribute")
            }
            let destination = relationship.destinationEntity!
            let column = schema[entity].columns[index]
            endsAtToMany = relationship.isToMany
            if tables == nil, !relationship.isToMany {
                prefix += name + "."
                alias = scope.join(path: prefix, from: alias, column: column!, to: destination) { newAlias() }
            } else if !relationship.isToMany {
                let next = newAlias()
                tables! += " JOIN \(EntityTable.tableName(destination)) \(next) ON \(next).Z_PK = \(alias).\(column!)"
                alias = next
            } else {
                let next = newAlias()
                let (from, link) = fanOutSource(relationship, owner: entity, ownerAlias: alias, subAlias: next)
                tables = tables.map { $0 + " JOIN " + from } ?? from
                conditions.append(link)
                alias = next
            }
            entity = destination
        }
        guard let tables, endsAtToMany else {
            throw failure("\(what) needs a to-many relationship at the end of '\(collection.joined(separator: "."))'")
        }
        return CollectionSource(tables: tables, condition: conditions.joined(separator: " AND "),
                                scope: SQLScope(alias: alias, entity: entity))
    }

    private func propertyIndex(_ key: String, of entity: EntityDescription, path: [String]) throws -> Int {
        guard let index = entity.propertyIndexByName[key] else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "Predicate `\(format)`: \(entity.name) has no property named '\(key)' (in key path '\(path.joined(separator: "."))'). Its properties: \(entity.properties.map(\.name).joined(separator: ", ")).",
                                   entityName: entity.name, key: key)
        }
        return index
    }

    /// The error for a key path that reaches a transient attribute: the store has no column to test or sort by
    /// (Core Data's SQL store says "keypath … not found in entity"). Worded for predicates and sort keys alike.
    private func transientKey(_ key: String, of entity: EntityDescription, path: [String]) -> PersistenceError {
        PersistenceError(.persistentStoreIncompatibleSchema,
                         "The store cannot fetch with the key path '\(path.joined(separator: "."))': \(entity.name).\(key) is a transient attribute, kept in memory only, so the store has no value to test or sort by (Core Data: keypath \(path.joined(separator: ".")) not found in entity \(entity.name)). Fetch without it, then filter or sort the objects in memory (FetchPredicate's evaluate(with:)).",
                         entityName: entity.name, key: key)
    }

    private mutating func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    private func failure(_ message: String) -> PersistenceError {
        PersistenceError(.coreData, "Predicate `\(format)` cannot be fetched: \(message).")
    }
}
