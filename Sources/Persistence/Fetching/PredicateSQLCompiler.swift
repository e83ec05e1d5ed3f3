import Foundation

/// Compiles a predicate's tree (``PredicateNode``) to SQL for the store, with the same meaning the
/// in-memory evaluator gives it (see ``PredicateComparison``). This file holds the boolean structure; comparisons,
/// values and key paths are in `PredicateSQLCompiler+Comparisons`, `+Values` and `+KeyPaths`.
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
    /// The values bound so far, in the order of their `?` in the SQL (written by the `+Comparisons` and `+Values`
    /// parts; read by the store, which binds them).
    var arguments: [SQLiteValue] = []
    /// Table aliases handed out so far (`t1`, `t2`…), so every join and subquery gets its own.
    var aliasCount = 0
    /// The scope of the fetch's own table, set by the first ``compile(_:in:)``.
    var root: SQLScope?

    init(schema: StoreSchema, format: String) {
        self.schema = schema
        self.format = format
    }

    /// What a key path ends at.
    enum Leaf {
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
        case .malformed(let malformed):
            throw failure(malformed.error.description)
        }
    }

    /// Plain infix SQL is kept for compounds this shallow and short, which SQLite parses easily.
    static func isSmall(_ node: PredicateNode, _ count: Int) -> Bool {
        count <= 32 && node.depth <= 4
    }

    /// A deep or long compound as one flat `CASE`. It follows one "spine" down the tree — at each AND or OR the
    /// deepest child, through NOTs by flipping what the chain answers — and turns every other child into a
    /// `WHEN`: at an OR, a true child decides the answer; at an AND, a false one. What the spine ends at is the
    /// `ELSE`. Only a second deep child of one node nests, so nesting grows with how bushy the tree is, not how
    /// deep. The `WHEN`s run in order and stop at the first that holds, as the evaluator's AND and OR stop early.
    mutating func compileChain(_ expression: PredicateNode, in scope: SQLScope) throws -> String {
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
    static func anyOf(_ parts: [String]) -> String {
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

    mutating func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    func failure(_ message: String) -> PersistenceError {
        PersistenceError(.coreData, "Predicate `\(format)` cannot be fetched: \(message).")
    }
}
