import Foundation
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence

/// What Core Data's SQLite store answers for a predicate, worked out in memory: the evaluator's answer for each
/// comparison, combined by SQL's three-valued logic.
///
/// The one way it differs from memory: SQL leaves a comparison with a nil value unknown, not false, and the `NOT`
/// of unknown is unknown, so the store leaves out an object for which memory's `NOT` is true. AND and OR follow SQL
/// (unknown AND false is false, unknown OR true is true); the store returns the objects for which the whole
/// predicate is true. Never unknown:
/// - `!=` (Core Data's SQL adds `OR … IS NULL`), `== nil`, `!= nil`, and `==` between two key paths (nil equals
///   nil in SQL here, as in memory);
/// - `IN` a list that holds nil;
/// - a comparison through a to-many (`ANY`, `ALL`, `NONE`, a key path through one), which SQL asks with `EXISTS`;
/// - what the store decides without reading the row: an ordering with nil or NaN, `BETWEEN` a nil or NaN bound,
///   `IN` a list with nothing else to match.
enum CoreDataSQLReading {
    /// Whether the store returns `object` for `predicate`. Throws where evaluating in memory does.
    static func matches(_ predicate: FetchPredicate, _ object: ManagedObject) throws -> Bool {
        _ = try predicate.evaluate(checking: object)
        return try truth(predicate.expression, object) == true
    }

    /// True, false, or nil for SQL's unknown.
    private static func truth(_ node: PredicateNode, _ object: ManagedObject) throws -> Bool? {
        switch node {
        case .constant(let value):
            return value
        case .not(let inner):
            return try truth(inner, object).map { !$0 }
        case .and(let children), .or(let children):
            let isOr: Bool
            if case .or = node { isOr = true } else { isOr = false }
            // A child that is `isOr` decides; otherwise one unknown child leaves the whole unknown.
            var answer: Bool? = !isOr
            for child in children {
                switch try truth(child, object) {
                case .some(let value) where value == isOr: return isOr
                case .none: answer = nil
                default: break
                }
            }
            return answer
        case .comparison(let comparison):
            if try isUnknown(comparison, object) { return nil }
            return try FetchPredicate(expression: node).evaluate(checking: object)
        case .tooDeep, .malformed:
            return try FetchPredicate(expression: node).evaluate(checking: object)
        }
    }

    private static func isUnknown(_ comparison: PredicateComparison, _ object: ManagedObject) throws -> Bool {
        let sides = [comparison.left, comparison.right]
        let paths = sides.filter(isPath)
        guard comparison.modifier == .direct, !paths.isEmpty,
              !paths.contains(where: { reachesThroughToMany($0, from: object.entity) }) else { return false }
        switch comparison.operator {
        case .notEqualTo: return false
        case .equalTo where paths.count == 2: return false
        // `value IN path` asks whether some element of the path is the value.
        case .in where !isPath(comparison.left): return false
        default: break
        }
        for case .constant(let value) in sides where value.isNull || isNaN(value) { return false }
        for case .aggregate(let items) in sides {
            let values = items.compactMap { item -> PersistentValue? in
                if case .constant(let value) = item { return value } else { return nil }
            }
            switch comparison.operator {
            case .in where values.contains(where: \.isNull): return false
            case .in where values.count == items.count && values.allSatisfy(isNaN): return false
            case .between where values.contains(where: { $0.isNull || isNaN($0) }): return false
            default: break
            }
        }
        return try paths.contains { try isNil($0, object) }
    }

    /// A side the store reads from the row.
    private static func isPath(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .keyPath, .collectionOperation, .evaluatedObject, .subqueryCount: return true
        default: return false
        }
    }

    private static func reachesThroughToMany(_ operand: PredicateOperand, from entity: EntityDescription) -> Bool {
        guard case .keyPath(let path) = operand else { return false }
        var entity = entity
        for key in path {
            guard let relationship = entity.relationshipsByName[key] else { return false }
            if relationship.isToMany { return true }
            guard let destination = relationship.destinationEntity else { return false }
            entity = destination
        }
        return false
    }

    private static func isNil(_ operand: PredicateOperand, _ object: ManagedObject) throws -> Bool {
        let test = PredicateComparison(operand, .equalTo, .constant(.null), modifier: .direct, options: [])
        return try FetchPredicate(expression: .comparison(test)).evaluate(checking: object)
    }

    private static func isNaN(_ value: PersistentValue) -> Bool {
        PredicateSQLCompiler.isNaN(value)
    }
}
