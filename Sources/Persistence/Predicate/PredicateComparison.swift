/// One comparison of a predicate: `[modifier] left operator[options] right`.
///
/// The meaning below is what the in-memory evaluator implements and what SQL must reproduce (it follows NSPredicate
/// and Core Data's SQL store; where they are silent the choice is written here).
///
/// **Values**
/// - `nil`: `==` is true only when both sides are nil, `!=` is its negation (so `name != "x"` holds for a nil name).
///   Every other operator is false when either side, or a `BETWEEN` bound, is nil. This holds between two key
///   paths too: `a == b` is true and `a != b` false when both are nil, with options or not. (NSPredicate evaluates
///   so in memory; Core Data's SQL store writes `=`, under which NULL equals nothing. Here SQL follows memory.)
/// - NaN equals nothing and orders with nothing, so `!= NaN` holds for every value, nil included. SQLite cannot
///   hold NaN (it binds it as NULL), so SQL decides such comparisons when it compiles them. A predicate holding NaN
///   still equals itself.
/// - Integers, doubles, decimals and booleans compare numerically with one another (`YES == 1`).
/// - Strings compare through ``StringComparison`` with the comparison's ``options``, also for `<`, `>` and `BETWEEN`.
/// - Dates compare and order; UUIDs, URIs and data support `==` and `!=` only.
/// - Objects (`SELF`, a to-one, an object argument) are equal when their ``ManagedObjectID``s are; they support `==`,
///   `!=`, `IN` and `CONTAINS`.
/// - Any other pair of kinds (a string with a number, `<` between UUIDs, `BEGINSWITH` on a number) is an evaluation
///   error, never a silent false — also for `==`.
///
/// **Key paths** (see ``PredicateOperand/keyPath(_:)``)
/// - Through a to-one, nil propagates: `director.name` is nil when `director` is.
/// - Through a to-many, the path fans out over every related object (nested to-manys are flattened). With no
///   modifier the comparison is true when any element satisfies it (implicit `ANY`, as Core Data's SQL store does).
/// - A path that ends at a to-many (`actors`, `movies.actors`) stands for the related objects: `CONTAINS` on it is
///   membership; any other operator applies to each object (implicit `ANY`).
/// - Under `ANY`/`ALL` (and for collection operators), a nil to-one before the end of the path counts as an empty
///   collection; a path that ends at a single value (an attribute, a to-one) is an error, nil or not.
/// - A nil to-one followed by a to-many (`director.movies.title` with no director) reaches no values at all, as a
///   join finds no rows: with no modifier every comparison is false, even `== nil`. (Known for managed objects,
///   whose model says which keys are to-many.)
/// - Every operator keeps its meaning through a to-many: `actors.name CONTAINS "Kim"` is true when some name
///   contains "Kim" (a substring test), while `actors CONTAINS %@` is membership.
///
/// **Values evaluated in memory** (`evaluate(with:)` on something other than a managed object; the store never
/// sees these, see ``PredicateValue/init(converting:)``)
/// - A dictionary's keys are key path keys; a missing key reads nil. With a dictionary on the right of `IN`, its
///   values are used (Apple's format syntax says so).
/// - An array, set or ordered set is one value, the whole collection, as NSPredicate takes it: `CONTAINS` on it is
///   membership (`tags CONTAINS 'a'`, never a substring test), it may stand on the right of `IN`, and `ANY`/`ALL`/
///   `NONE`, collection operators and `SUBQUERY` go through its elements (`SELF` included: `ANY SELF > 3`). Any other
///   comparison of it is an error: NSPredicate compares the whole collection and answers false (an array does not
///   equal a string), where to-many key paths above compare each element; failing says which reading it is not.
/// - A key read from an array reads it from each element (`ANY items.name == 'ink'`), giving an array of the values;
///   an element that is nil there, or a collection inside a collection, is an error (key-value coding puts `NSNull`
///   in the array, which has no keys; Apple raises).
/// - A plain value (a string, a number, a date…) has no keys but `self`; a Swift value of another type has none
///   and compares with nothing but nil. Reading another key is an error naming the value's kind and the key, as
///   key-value coding raises `NSUnknownKeyException` on Apple. (NSString's `length` and NSNumber's `intValue`, which
///   key-value coding reaches on Apple, are not read here.)
///
/// **Operators**
/// - `IN`: with a collection on the right (a list, an array argument, a to-many key path), the left equals some
///   element, using ``options`` for strings (`nil IN {nil}` is true, as `IN` is a disjunction of `==`). With a
///   string on the right, the left is a substring of it.
/// - `BETWEEN {lo, hi}`: `lo <= left <= hi`, both bounds inclusive.
/// - `CONTAINS`: between strings, substring; with a collection on the left, membership (as `==`).
/// - `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`: strings only; see ``StringComparison``.
struct PredicateComparison: Sendable, Hashable {
    /// `ANY`/`SOME`, `ALL`, or none. (`NONE` is stored as `NOT ANY`.)
    enum Modifier: Sendable, Hashable {
        /// No modifier. A left side that fans out through a to-many still behaves as `ANY`.
        case direct
        /// `ANY`, `SOME`: true when some element of the left collection satisfies the comparison.
        case any
        /// `ALL`: true when every element does; true for an empty collection. An element whose comparison is
        /// false because of nil makes `ALL` false (SQL must not let a NULL comparison count as satisfied).
        case all
    }

    /// The operator between the two sides.
    enum Operator: Sendable, Hashable, CaseIterable {
        /// `==`, `=`
        case equalTo
        /// `!=`, `<>`
        case notEqualTo
        /// `<`
        case lessThan
        /// `<=`, `=<`
        case lessThanOrEqualTo
        /// `>`
        case greaterThan
        /// `>=`, `=>`
        case greaterThanOrEqualTo
        /// `BETWEEN`; the right side is a two-element list or a variable.
        case between
        /// `IN`
        case `in`
        /// `CONTAINS`
        case contains
        /// `BEGINSWITH`
        case beginsWith
        /// `ENDSWITH`
        case endsWith
        /// `LIKE`
        case like
        /// `MATCHES`
        case matches

        /// How the canonical format writes the operator.
        var symbol: String {
            switch self {
            case .equalTo: return "=="
            case .notEqualTo: return "!="
            case .lessThan: return "<"
            case .lessThanOrEqualTo: return "<="
            case .greaterThan: return ">"
            case .greaterThanOrEqualTo: return ">="
            case .between: return "BETWEEN"
            case .in: return "IN"
            case .contains: return "CONTAINS"
            case .beginsWith: return "BEGINSWITH"
            case .endsWith: return "ENDSWITH"
            case .like: return "LIKE"
            case .matches: return "MATCHES"
            }
        }

        /// `true` for the operators that take strings only.
        var isStringPattern: Bool {
            switch self {
            case .beginsWith, .endsWith, .like, .matches: return true
            default: return false
            }
        }
    }

    var modifier: Modifier
    var left: PredicateOperand
    var `operator`: Operator
    var right: PredicateOperand
    var options: StringComparison.Options

    init(_ left: PredicateOperand, _ operator: Operator, _ right: PredicateOperand,
         modifier: Modifier = .direct, options: StringComparison.Options = []) {
        self.modifier = modifier
        self.left = left
        self.operator = `operator`
        self.right = right
        self.options = options
    }

    /// Which side of a comparison a problem is on.
    enum Side: Sendable, Hashable {
        case left, right
    }

    /// What is wrong with the comparison's shape, or nil when it is well formed. The parser and variable
    /// substitution reject ill-formed comparisons, so code that walks the tree may rely on:
    /// - with `ANY`/`ALL`, the left side is a ``PredicateOperand/keyPath(_:)`` or `SELF` (an array evaluated);
    /// - a list on the left only with `CONTAINS`;
    /// - `BETWEEN` has a two-element list or a variable on the right;
    /// - `IN` has a list, a key path, `SELF`, a variable, or a string constant on the right;
    /// - no other operator has a list on the right;
    /// - `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` have no constant other than a string or nil on the right, and a
    ///   constant `MATCHES` pattern compiles.
    func structuralProblem() -> (side: Side, message: String)? {
        if modifier != .direct, !left.isKeyPath, left != .evaluatedObject {
            let word = modifier == .any ? "ANY" : "ALL"
            return (.left, "\(word) needs a key path to a to-many relationship on its left, as in \(word) actors.name")
        }
        if case .aggregate = left, self.operator != .contains {
            return (.left, "a list on the left of \(self.operator.symbol) is not supported; only CONTAINS takes one")
        }
        switch (self.operator, right) {
        case (.between, .variable):
            return nil
        case (.between, .aggregate(let bounds)) where bounds.count == 2:
            return nil
        case (.between, .aggregate(let bounds)):
            return (.right, "BETWEEN needs a list of two values, as in BETWEEN {1, 10}; this list has \(bounds.count)")
        case (.between, _):
            return (.right, "BETWEEN needs a list of two values, as in BETWEEN {1, 10}")
        case (.in, .aggregate), (.in, .keyPath), (.in, .variable), (.in, .constant(.string)), (.in, .evaluatedObject):
            return nil
        case (.in, _):
            return (.right, "IN needs a list, an array argument, a to-many key path, SELF or a string on its right")
        case (_, .aggregate):
            return (.right, "a list on the right of \(self.operator.symbol) is not supported; use IN or BETWEEN")
        case (let op, .constant(let value)) where op.isStringPattern:
            switch value {
            case .null:
                return nil
            case .string(let pattern):
                guard op == .matches else { return nil }
                do {
                    try StringComparison.validateRegularExpression(pattern)
                    return nil
                } catch {
                    return (.right, "'\(pattern)' is not a valid regular expression for MATCHES")
                }
            default:
                return (.right, "\(op.symbol) needs a string on its right, not \(value.kindName) \(value)")
            }
        case (let op, .object) where op.isStringPattern:
            return (.right, "\(op.symbol) needs a string on its right, not an object")
        default:
            return nil
        }
    }
}
