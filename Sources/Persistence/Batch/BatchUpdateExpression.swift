/// A value computed from each row for ``BatchUpdateRequest/propertiesToUpdate``: arithmetic on the row's own
/// numeric attributes and numbers, evaluated by SQLite as it updates the row (Core Data accepts an
/// `NSExpression` there).
///
/// ```swift
/// request.propertiesToUpdate = [
///     "rating": BatchUpdateExpression.key("rating") + 0.5,
///     "year": BatchUpdateExpression.key("year") - 1,
/// ]
/// ```
///
/// Rules, checked before anything is written:
/// - keys name numeric attributes (integers, double, float) of the request's entity;
/// - an integer attribute needs an integer expression: integer attributes and integer literals only
///   (integer division truncates toward zero, as in Swift);
/// - nil in, nil out: an attribute that is nil stays nil, and dividing by zero gives nil, as in SQL;
/// - a result that does not fit the attribute (out of range, or nil for a non-optional attribute) fails the whole
///   request with 1550 / 1570, naming the object and the value, and nothing is written.
///
/// Persistence-only (Core Data takes an `NSExpression`), so declared in the `BatchUpdateExpression` SPI group:
/// `@_spi(BatchUpdateExpression) import Persistence`.
@_spi(BatchUpdateExpression)
public struct BatchUpdateExpression: Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    indirect enum Node: Sendable {
        case key(String)
        case integer(Int64)
        case double(Double)
        case binary(Operator, Node, Node)
    }

    enum Operator: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    /// The value of the attribute `name` of the row being updated.
    public static func key(_ name: String) -> BatchUpdateExpression { BatchUpdateExpression(.key(name)) }

    /// A constant.
    public static func value(_ number: Int) -> BatchUpdateExpression { BatchUpdateExpression(.integer(Int64(number))) }

    /// A constant.
    public static func value(_ number: Double) -> BatchUpdateExpression { BatchUpdateExpression(.double(number)) }

    /// An integer constant: the `1` of `.key("year") + 1`.
    public init(integerLiteral value: Int64) { node = .integer(value) }

    /// A double constant: the `0.5` of `.key("rating") + 0.5`.
    public init(floatLiteral value: Double) { node = .double(value) }

    /// The sum, computed by SQLite for each row.
    public static func + (lhs: BatchUpdateExpression, rhs: BatchUpdateExpression) -> BatchUpdateExpression {
        BatchUpdateExpression(.binary(.add, lhs.node, rhs.node))
    }

    /// The difference, computed by SQLite for each row.
    public static func - (lhs: BatchUpdateExpression, rhs: BatchUpdateExpression) -> BatchUpdateExpression {
        BatchUpdateExpression(.binary(.subtract, lhs.node, rhs.node))
    }

    /// The product, computed by SQLite for each row.
    public static func * (lhs: BatchUpdateExpression, rhs: BatchUpdateExpression) -> BatchUpdateExpression {
        BatchUpdateExpression(.binary(.multiply, lhs.node, rhs.node))
    }

    /// The quotient, computed by SQLite for each row: truncated for integers, nil when dividing by zero.
    public static func / (lhs: BatchUpdateExpression, rhs: BatchUpdateExpression) -> BatchUpdateExpression {
        BatchUpdateExpression(.binary(.divide, lhs.node, rhs.node))
    }

    /// The expression as written: `(year * 2) - 1`.
    public var description: String { Self.describe(node, nested: false) }

    private static func describe(_ node: Node, nested: Bool) -> String {
        switch node {
        case .key(let name): return name
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .binary(let op, let lhs, let rhs):
            let text = "\(describe(lhs, nested: true)) \(op.rawValue) \(describe(rhs, nested: true))"
            return nested ? "(\(text))" : text
        }
    }

    // MARK: - SQL

    /// The expression as SQL over the table aliased `alias`, with its constants as bound arguments, and whether
    /// it yields integers.
    func sql(entity: EntityDescription, table: EntityTable, alias: String, place: String) throws
        -> (sql: String, arguments: [SQLiteValue], isInteger: Bool)
    {
        var arguments: [SQLiteValue] = []
        let (sql, isInteger) = try compile(node, entity: entity, table: table, alias: alias, place: place, arguments: &arguments)
        return (sql, arguments, isInteger)
    }

    private func compile(_ node: Node, entity: EntityDescription, table: EntityTable, alias: String, place: String,
                         arguments: inout [SQLiteValue]) throws -> (String, Bool) {
        switch node {
        case .key(let name):
            let (index, attribute) = try BatchValueChecker.attribute(name, of: entity, place: place)
            let type = attribute.attributeType
            guard [.integer16, .integer32, .integer64, .double, .float].contains(type) else {
                throw PersistenceError(.coreData,
                                       "\(place): the expression `\(self)` uses \(entity.entityName).\(name), a \(type.rawValue) attribute; expressions do arithmetic on integer, double and float attributes only.",
                                       entityName: entity.entityName, key: name)
            }
            // The column exists: only to-many relationships and transient attributes have none, and the checker
            // refused both.
            return ("\(alias).\(table.columns[index] ?? "NULL")", [.integer16, .integer32, .integer64].contains(type))
        case .integer(let value):
            arguments.append(.integer(value))
            return ("?", true)
        case .double(let value):
            arguments.append(.real(value))
            return ("?", false)
        case .binary(let op, let lhs, let rhs):
            let (left, leftInteger) = try compile(lhs, entity: entity, table: table, alias: alias, place: place, arguments: &arguments)
            let (right, rightInteger) = try compile(rhs, entity: entity, table: table, alias: alias, place: place, arguments: &arguments)
            return ("(\(left) \(op.rawValue) \(right))", leftInteger && rightInteger)
        }
    }
}
