import Foundation

/// Compiles a predicate's tree (``PredicateNode``) to SQL for the store, with the same meaning the
/// in-memory evaluator gives it (see ``PredicateComparison``). This file holds the boolean structure; comparisons,
/// values and key paths are in `PredicateSQLCompiler+Comparisons`, `+Values` and `+KeyPaths`.
///
/// - Values are always bound as arguments, never written into the SQL.
/// - A comparison with a nil value is NULL, SQL's "unknown", where Core Data's SQL makes it so (`rating >= ?` with
///   no rating), and its `NOT` is unknown too, so the row is left out, as Core Data's SQLite store leaves it out;
///   memory evaluation reads the comparison as false and its `NOT` as true. `!=`, `== nil` and `!= nil` are never
///   unknown. `NOT` is pushed down to the comparisons (De Morgan's laws hold in SQL's three-valued logic), so the
///   SQL reads as Core Data's does, `NOT (t0.ZRATING >= ?)`, and a deep chain can still be one flat `CASE`.
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

    /// The SQL condition for `expression`, or for its `NOT` when `negated`. It is true exactly when Core Data's SQL
    /// for it is; where that is unknown it may be NULL or 0, which a `WHERE` treats alike, so the condition is only
    /// ever used where just its truth counts: a `WHERE`, an `AND` or `OR` of such conditions, a `CASE WHEN`.
    mutating func compile(_ expression: PredicateNode, in scope: SQLScope, negated: Bool = false) throws -> String {
        if root == nil { root = scope }
        switch expression {
        case .constant(let value):
            return value != negated ? "1" : "0"
        case .and(let children) where Self.isSmall(expression, children.count),
             .or(let children) where Self.isSmall(expression, children.count):
            // NOT (a AND b) is NOT a OR NOT b, and NOT (a OR b) is NOT a AND NOT b.
            let isOr: Bool
            if case .or = expression { isOr = !negated } else { isOr = negated }
            var parts: [String] = []
            for child in children { parts.append(try compile(child, in: scope, negated: negated)) }
            return "(" + parts.joined(separator: isOr ? " OR " : " AND ") + ")"
        case .not(let child):
            // No SQL of its own: the NOT goes down to the comparisons.
            return try compile(child, in: scope, negated: !negated)
        case .and, .or:
            return try compileChain(expression, in: scope, negated: negated)
        case .comparison(let comparison):
            let sql = try compileComparison(comparison, in: scope)
            return negated ? "NOT (\(sql))" : sql
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
    /// deepest child, through NOTs by negating what follows (an AND under a NOT is an OR of negated children) — and
    /// turns every other child into a `WHEN`: at an OR, a true child decides the answer; at an AND, a child that is
    /// not true (false or unknown). What the spine ends at is the `ELSE`. Only a second deep child of one node
    /// nests, so nesting grows with how bushy the tree is, not how deep. The `WHEN`s run in order and stop at the
    /// first that holds, as the evaluator's AND and OR stop early.
    mutating func compileChain(_ expression: PredicateNode, in scope: SQLScope, negated start: Bool) throws -> String {
        var whens: [String] = []
        var node = expression
        var negated = start
        var last: String?
        while last == nil {
            switch node {
            case .not(let inner):
                negated.toggle()
                node = inner
            case .and(let children), .or(let children):
                let isOr: Bool
                if case .or = node { isOr = !negated } else { isOr = negated }
                let depths = children.map(\.depth)
                let deepest = depths.indices.max { depths[$0] < depths[$1] }!
                let spine = depths[deepest] > 4 ? deepest : nil
                for (index, child) in children.enumerated() where index != spine {
                    let sql = try compile(child, in: scope, negated: negated)
                    whens.append(isOr ? "WHEN \(sql) THEN 1" : "WHEN NOT IFNULL(\(sql), 0) THEN 0")
                }
                if let spine {
                    node = children[spine]
                } else {
                    // No child decided: an OR is false, an AND true.
                    last = isOr ? "0" : "1"
                }
            default:
                last = try compile(node, in: scope, negated: negated)
            }
        }
        guard !whens.isEmpty else { return "(\(last!))" }
        return "(CASE " + whens.joined(separator: " ") + " ELSE \(last!) END)"
    }

    /// True when any of `parts` is: `0` for none, a plain OR for a few, a flat CASE for many.
    static func anyOf(_ parts: [String]) -> String {
        switch parts.count {
        case 0: return "0"
        case 1: return parts[0]
        case ...32: return "(" + parts.joined(separator: " OR ") + ")"
        default:
            // Each part tests the same value, so each is unknown just when that value is nil (true, for `IS NULL`):
            // ending in the last part rather than 0 keeps that unknown under a NOT, as the OR does.
            return "(CASE " + parts.dropLast().map { "WHEN \($0) THEN 1" }.joined(separator: " ") + " ELSE \(parts.last!) END)"
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
