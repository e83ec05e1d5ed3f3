import Foundation

/// Evaluates a predicate tree against one object in memory, with the semantics written down on
/// ``PredicateComparison`` and ``PredicateOperand/CollectionOperator``.
///
/// Errors thrown by the object (an unknown key) pass through unchanged; problems with the values themselves are
/// thrown as ``Failure`` and turned into a ``FetchPredicateError`` by ``FetchPredicate/evaluate(checking:)``.
struct PredicateEvaluator {
    /// A value that cannot be used as the predicate asks: what and which key path.
    struct Failure: Error {
        var message: String
        var keyPath: String?
    }

    /// One value met while evaluating: an attribute or constant, or an object (known by ID only when it came from
    /// an argument).
    enum Item {
        case value(PersistentValue)
        case object(any PredicateEvaluable)
        case objectID(ManagedObjectID)
        /// An array or set that is one element of another collection (`[[1, 2], [3]]`), or the value evaluated.
        case collection([Item])
        /// A value with no keys and no kind to compare (see ``PredicateValue/opaque(typeName:)``).
        case opaque(typeName: String)

        init(_ value: PredicateValue) {
            switch value {
            case .value(let value): self = .value(value)
            case .object(let object): self = .object(object)
            case .objects(let objects): self = .collection(objects.map { .object($0) })
            case .collection(let elements): self = .collection(elements.map(Item.init))
            case .opaque(let name): self = .opaque(typeName: name)
            }
        }

        var isNull: Bool {
            if case .value(.null) = self { return true }
            return false
        }

        var kindName: String {
            switch self {
            case .value(let value): return value.kindName
            case .object(let object): return object.predicateKindName
            case .objectID: return "object"
            case .collection: return "a collection"
            case .opaque(let name): return "a \(name) (which has no keys to read)"
            }
        }
    }

    /// What an operand stands for on one object.
    private enum Resolved {
        /// One value or object (nil included).
        case single(Item)
        /// Nil because a to-one before the end of the key path is nil (`sequel.title` with no sequel). It compares as
        /// nil, and counts as an empty collection for ANY, ALL and collection operators, since the keys after the
        /// nil one may be to-many.
        case nilOnTheWay
        /// A collection in its own right: the objects of a to-many at the end of a key path, or a list.
        case collection([Item])
        /// The values reached through a to-many before the end of a key path (`actors.name`).
        case fanOut([Item])
        /// An array or set that is not a relationship — the value evaluated, a dictionary's value, or a key read from
        /// each element of one (`people.name`, as key-value coding reads an `NSArray`) — nil elements included.
        /// Without `ANY` or `ALL` it is one value, the whole collection: NSPredicate compares it as such, so only
        /// `CONTAINS` (membership) and the right side of `IN` take it; any other comparison is an error rather than
        /// NSPredicate's quiet false (an array never equals a string).
        case elements([Item])
    }

    /// What the predicate is evaluated with: `SELF`, where key paths start.
    let root: Item

    init(root: Item) {
        self.root = root
    }

    init(root: PredicateValue) {
        self.root = Item(root)
    }

    func evaluate(_ expression: PredicateNode) throws -> Bool {
        switch expression {
        case .constant(let value):
            return value
        case .and(let children):
            for child in children where try !evaluate(child) { return false }
            return true
        case .or(let children):
            for child in children where try evaluate(child) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner)
        case .comparison(let comparison):
            return try evaluate(comparison)
        case .tooDeep(let depth):
            throw Failure(message: PredicateNode.tooDeepMessage(depth), keyPath: nil)
        case .malformed(let malformed):
            // The parser's own error, thrown as it is.
            throw malformed.error
        }
    }

    // MARK: Comparisons

    private func evaluate(_ comparison: PredicateComparison) throws -> Bool {
        let left = try resolve(comparison.left)
        let right = try resolve(comparison.right)
        switch comparison.modifier {
        case .any, .all:
            let elements: [Item]
            switch left {
            case .collection(let items), .fanOut(let items), .elements(let items): elements = items
            case .nilOnTheWay: elements = []
            case .single:
                let word = comparison.modifier == .any ? "ANY" : "ALL"
                throw Failure(message: "\(word) needs a to-many key path or a collection on its left, but "
                              + "\(PredicateFormatter.format(comparison.left)) is a single value",
                              keyPath: keyPathText(comparison.left))
            }
            if comparison.modifier == .any {
                for element in elements where try compare(element, right, comparison) { return true }
                return false
            }
            for element in elements where try !compare(element, right, comparison) { return false }
            return true
        case .direct:
            switch left {
            case .single(let item):
                return try compare(item, right, comparison)
            case .nilOnTheWay:
                return try compare(.value(.null), right, comparison)
            case .collection(let items) where comparison.operator == .contains,
                 .elements(let items) where comparison.operator == .contains:
                let needle = try single(right, comparison, side: "right")
                for item in items where try equal(item, needle, comparison) { return true }
                return false
            case .elements:
                throw Failure(message: "\(PredicateFormatter.format(comparison.left)) is a collection, which "
                              + "\(comparison.operator.symbol) does not compare as a whole; use ANY or ALL to compare its "
                              + "elements, or CONTAINS to test membership", keyPath: keyPathText(comparison.left))
            case .collection(let items), .fanOut(let items):
                // A to-many without a modifier behaves as ANY, as in Core Data's SQL store.
                for item in items where try compare(item, right, comparison) { return true }
                return false
            }
        }
    }

    /// One left value against the right side.
    private func compare(_ left: Item, _ right: Resolved, _ comparison: PredicateComparison) throws -> Bool {
        let op = comparison.operator
        switch op {
        case .in:
            switch right {
            case .collection(let items), .fanOut(let items), .elements(let items),
                 .single(.collection(let items)):
                for item in items where try equal(left, item, comparison) { return true }
                return false
            case .nilOnTheWay:
                return false
            case .single(.object(let dictionary as PredicateDictionary)):
                // Apple's format syntax: with a dictionary on the right of IN, its values are used.
                for value in dictionary.values where try equal(left, Item(PredicateValue(converting: value)), comparison) {
                    return true
                }
                return false
            case .single(let container):
                // `name IN "text"`: a substring test, as NSPredicate does.
                if left.isNull || container.isNull { return false }
                guard case .value(.string(let needle)) = left, case .value(.string(let haystack)) = container else {
                    throw mismatch(left, container, comparison, needs: "a collection (or two strings)")
                }
                return StringComparison.contains(haystack, needle, options: comparison.options)
            }
        case .between:
            guard case .collection(let bounds) = right, bounds.count == 2 else {
                throw Failure(message: "BETWEEN needs a list of two values on its right",
                              keyPath: keyPathText(comparison.right))
            }
            if left.isNull || bounds[0].isNull || bounds[1].isNull { return false }
            guard let low = try order(left, bounds[0], comparison),
                  let high = try order(left, bounds[1], comparison) else { return false }
            return low != .orderedAscending && high != .orderedDescending
        default:
            let other = try single(right, comparison, side: "right")
            switch op {
            case .equalTo:
                return try equal(left, other, comparison)
            case .notEqualTo:
                return try !equal(left, other, comparison)
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                guard let result = try order(left, other, comparison) else { return false }
                switch op {
                case .lessThan: return result == .orderedAscending
                case .lessThanOrEqualTo: return result != .orderedDescending
                case .greaterThan: return result == .orderedDescending
                default: return result != .orderedAscending
                }
            case .contains:
                // An array or set inside a collection (`ANY SELF CONTAINS 1` over `[[1, 2]]`): membership.
                guard case .collection(let items) = left else { return try stringOperation(left, other, comparison) }
                for item in items where try equal(item, other, comparison) { return true }
                return false
            default:
                return try stringOperation(left, other, comparison)
            }
        }
    }

    /// CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES between two single values.
    private func stringOperation(_ left: Item, _ right: Item, _ comparison: PredicateComparison) throws -> Bool {
        if left.isNull || right.isNull { return false }
        guard case .value(.string(let string)) = left, case .value(.string(let pattern)) = right else {
            let needs = comparison.operator == .contains ? "two strings, or a to-many on its left" : "two strings"
            throw mismatch(left, right, comparison, needs: needs)
        }
        let options = comparison.options
        switch comparison.operator {
        case .contains: return StringComparison.contains(string, pattern, options: options)
        case .beginsWith: return StringComparison.beginsWith(string, pattern, options: options)
        case .endsWith: return StringComparison.endsWith(string, pattern, options: options)
        case .like: return StringComparison.like(string, pattern: pattern, options: options)
        default:
            do {
                return try StringComparison.matches(string, regex: pattern, options: options)
            } catch let error as FetchPredicateError {
                throw Failure(message: error.message, keyPath: keyPathText(comparison.right))
            }
        }
    }

    /// `==` between two single values: nil equals only nil; otherwise the kinds must be comparable.
    private func equal(_ left: Item, _ right: Item, _ comparison: PredicateComparison) throws -> Bool {
        if left.isNull || right.isNull { return left.isNull && right.isNull }
        switch (left, right) {
        case (.value(let a), .value(let b)):
            switch (a, b) {
            case (.string(let x), .string(let y)):
                return StringComparison.equals(x, y, options: comparison.options)
            case (.date(let x), .date(let y)): return x == y
            case (.uuid(let x), .uuid(let y)): return x == y
            case (.uri(let x), .uri(let y)): return x == y
            case (.data(let x), .data(let y)): return x == y
            default:
                guard Self.isNumber(a), Self.isNumber(b) else {
                    throw mismatch(left, right, comparison, needs: "values of the same kind")
                }
                return Self.compareNumbers(a, b) == .orderedSame  // nil for NaN, which equals nothing
            }
        case (.object, .object), (.object, .objectID), (.objectID, .object), (.objectID, .objectID):
            return try objectID(left, comparison) == objectID(right, comparison)
        default:
            throw mismatch(left, right, comparison, needs: "values of the same kind")
        }
    }

    /// The order of two single values, or nil when either is nil (so every ordering comparison is false).
    private func order(_ left: Item, _ right: Item, _ comparison: PredicateComparison) throws -> ComparisonResult? {
        if left.isNull || right.isNull { return nil }
        if case .value(let a) = left, case .value(let b) = right {
            switch (a, b) {
            case (.string(let x), .string(let y)): return StringComparison.compare(x, y, options: comparison.options)
            case (.date(let x), .date(let y)): return x.compare(y)
            default:
                // NaN is unordered: every ordering comparison with it is false.
                if Self.isNumber(a), Self.isNumber(b) { return Self.compareNumbers(a, b) }
            }
        }
        throw mismatch(left, right, comparison, needs: "two numbers, two strings or two dates")
    }

    private func objectID(_ item: Item, _ comparison: PredicateComparison) throws -> ManagedObjectID {
        switch item {
        case .objectID(let id): return id
        case .object(let object):
            if let id = object.predicateObjectID { return id }
            let kind = object is PredicateDictionary ? "dictionary" : "\(type(of: object))"
            throw Failure(message: "a \(kind) has no object ID, so it cannot be compared as an object",
                          keyPath: keyPathText(comparison.left))
        case .value(let value):
            throw Failure(message: "expected an object, found \(value.kindName) \(value)",
                          keyPath: keyPathText(comparison.left))
        case .collection, .opaque:
            throw Failure(message: "expected an object, found \(item.kindName)", keyPath: keyPathText(comparison.left))
        }
    }

    /// The one value a side must be for operators other than IN, BETWEEN and CONTAINS on a collection.
    private func single(_ resolved: Resolved, _ comparison: PredicateComparison, side: String) throws -> Item {
        if case .single(let item) = resolved { return item }
        if case .nilOnTheWay = resolved { return .value(.null) }
        let operand = side == "right" ? comparison.right : comparison.left
        throw Failure(message: "\(PredicateFormatter.format(operand)) on the \(side) of "
                      + "\(comparison.operator.symbol) is a collection; use IN, CONTAINS or ANY",
                      keyPath: keyPathText(operand))
    }

    private func mismatch(_ left: Item, _ right: Item, _ comparison: PredicateComparison, needs: String) -> Failure {
        let leftText = PredicateFormatter.format(comparison.left)
        let rightText = PredicateFormatter.format(comparison.right)
        let keyPath = keyPathText(comparison.left) ?? keyPathText(comparison.right)
        return Failure(message: "\(comparison.operator.symbol) needs \(needs), but \(leftText) is \(left.kindName) "
                       + "and \(rightText) is \(right.kindName)", keyPath: keyPath)
    }

    private func keyPathText(_ operand: PredicateOperand) -> String? {
        switch operand {
        case .keyPath, .collectionOperation, .evaluatedObject, .subqueryCount: return PredicateFormatter.format(operand)
        default: return nil
        }
    }

    // MARK: Numbers

    /// `true` for the kinds that compare as numbers.
    static func isNumber(_ value: PersistentValue) -> Bool {
        switch value {
        case .integer, .double, .decimal, .bool: return true
        default: return false
        }
    }

    /// Integers, doubles, decimals and booleans compared as numbers; nil when either is not a number or is NaN.
    static func compareNumbers(_ a: PersistentValue, _ b: PersistentValue) -> ComparisonResult? {
        switch (a, b) {
        case (.integer, .integer), (.integer, .bool), (.bool, .integer), (.bool, .bool):
            guard let x = integer(a), let y = integer(b) else { return nil }
            return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
        case (.decimal, .decimal), (.decimal, .integer), (.integer, .decimal), (.decimal, .bool), (.bool, .decimal):
            guard let x = decimal(a), let y = decimal(b) else { return nil }
            return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
        default:
            guard let x = double(a), let y = double(b) else { return nil }
            if x.isNaN || y.isNaN { return nil }
            return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
        }
    }

    private static func integer(_ value: PersistentValue) -> Int64? {
        switch value {
        case .integer(let i): return i
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    private static func decimal(_ value: PersistentValue) -> Decimal? {
        switch value {
        case .decimal(let d): return d
        case .integer(let i): return Decimal(i)
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    private static func double(_ value: PersistentValue) -> Double? {
        switch value {
        case .double(let d): return d
        case .integer(let i): return Double(i)
        case .bool(let b): return b ? 1 : 0
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }

    // MARK: Operands

    private func resolve(_ operand: PredicateOperand) throws -> Resolved {
        switch operand {
        case .constant(let value):
            return .single(.value(value))
        case .object(let id):
            return .single(.objectID(id))
        case .aggregate(let elements):
            return .collection(try elements.map { element in
                guard case .single(let item) = try resolve(element) else {
                    throw Failure(message: "a list may not contain a collection", keyPath: nil)
                }
                return item
            })
        case .evaluatedObject:
            return Self.resolved(root)
        case .variable(let name):
            throw Failure(message: "the variable $\(name) has no value; use withSubstitutionVariables(_:) first",
                          keyPath: nil)
        case .keyPath(let keys):
            return try follow(keys, from: root)
        case .collectionOperation(let op, let collection, let key):
            return .single(.value(try apply(op, collection: collection, key: key)))
        case .subqueryCount(let collection, _, let predicate):
            return .single(.value(.integer(try countMatches(of: predicate, in: collection, operand: operand))))
        }
    }

    /// `SELF`, or the start of a key path with no keys: an array or set is a collection of its elements.
    private static func resolved(_ item: Item) -> Resolved {
        if case .collection(let elements) = item { return .elements(elements) }
        return .single(item)
    }

    /// The elements of the collection `collection` reaches (for a collection operator or a SUBQUERY), and whether
    /// it is an array or set rather than relationships. Nil elements are left out of a relationship's and kept in an
    /// array's (whose `@count` counts them, as `NSArray`'s does).
    private func elements(of collection: [String], needs: String, path: String) throws -> (items: [Item], plain: Bool) {
        switch try follow(collection, from: root) {
        case .collection(let items), .fanOut(let items): return (items.filter { !$0.isNull }, false)
        case .elements(let items): return (items, true)
        case .nilOnTheWay: return ([], false)
        case .single(let item):
            let name = collection.isEmpty ? "SELF" : "'\(collection.joined(separator: "."))'"
            let kind = item.kindName != "object" ? item.kindName : collection.isEmpty ? "an object" : "a to-one"
            throw Failure(message: "\(needs), but \(name) is \(kind)", keyPath: path)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count`: the objects `collection` reaches (each time it reaches them)
    /// on which `predicate` holds. The elements of an array or set may be values (`$x BEGINSWITH 'a'`).
    private func countMatches(of predicate: PredicateNode, in collection: [String],
                              operand: PredicateOperand) throws -> Int64 {
        let path = PredicateFormatter.format(operand)
        let (elements, plain) = try elements(of: collection, needs: "SUBQUERY needs a to-many key path as its collection",
                                             path: path)
        var count: Int64 = 0
        for element in elements {
            if !plain, case .value = element {
                // Through relationships the collection must end at objects, as the store requires.
                throw Failure(message: "SUBQUERY needs objects in its collection, but "
                              + "'\(collection.joined(separator: "."))' holds values", keyPath: path)
            }
            if try PredicateEvaluator(root: element).evaluate(predicate) { count += 1 }
        }
        return count
    }

    /// Follows `keys` from `start`: through to-ones (nil propagates), fanning out through to-manys, and reading each
    /// element of an array or set (as key-value coding reads one).
    private func follow(_ keys: [String], from start: Item) throws -> Resolved {
        guard !keys.isEmpty else { return Self.resolved(start) }
        var frontier: [Item] = [start]
        var throughElements = false  // the frontier is the elements of an array or set
        if case .collection(let elements) = start {
            frontier = elements
            throughElements = true
        }
        var nulls = 0  // branches that met a nil to-one before the last key
        var fannedOut = false
        var crossedToMany = false  // a branch met a nil to-one before a to-many, and so ends with no values
        for (index, key) in keys.enumerated() {
            let isLast = index == keys.count - 1
            let nested = throughElements || fannedOut  // each value read now is one of several
            var next: [Item] = []
            var nextIsElements = false
            var items: [Item] = []
            var endsAtToMany = false
            for node in frontier {
                let value = try read(key, of: node, keys: keys, index: index, throughElements: throughElements)
                switch value {
                case .value(let value):
                    if isLast {
                        items.append(.value(value))
                    } else if value.isNull {
                        if throughElements {
                            // Key-value coding puts NSNull in an array for a nil value, and NSNull has no keys:
                            // Apple raises here; so does this.
                            throw Failure(message: "'\(keys[...index].joined(separator: "."))' is nil for an element, "
                                          + "so '\(keys[index + 1])' cannot be read from it",
                                          keyPath: keys.joined(separator: "."))
                        }
                        // As in SQL, where a to-many after a nil to-one joins no rows: such a branch adds nothing,
                        // while one that meets nil on its way to a single value adds a nil.
                        if case .object(let object) = node, Self.crossesToMany(object, keys, after: index) {
                            crossedToMany = true
                        } else {
                            nulls += 1
                        }
                    } else {
                        next.append(.value(value))  // the next key fails on it, unless it is `self`
                    }
                case .object(let related):
                    if isLast { items.append(.object(related)) } else { next.append(.object(related)) }
                case .opaque(let name):
                    if isLast { items.append(.opaque(typeName: name)) } else { next.append(.opaque(typeName: name)) }
                case .objects(let related):
                    if throughElements { throw nestedCollection(keys, index) }
                    if isLast {
                        items += related.map { .object($0) }
                        endsAtToMany = true
                    } else {
                        next += related.map { .object($0) }
                        fannedOut = true
                    }
                case .collection(let elements):
                    if nested { throw nestedCollection(keys, index) }
                    if isLast { return .elements(elements.map(Item.init)) }
                    next += elements.map(Item.init)
                    nextIsElements = true
                }
            }
            if isLast {
                if throughElements {
                    // A key of each element: the collection of their values, as key-value coding makes it.
                    return .elements(items)
                }
                if endsAtToMany {
                    return .collection(items.filter { !$0.isNull })
                }
                if fannedOut || crossedToMany {
                    return .fanOut(items + Array(repeating: Item.value(.null), count: nulls))
                }
                if nulls > 0 { return .nilOnTheWay }
                return .single(items.first ?? .value(.null))
            }
            frontier = next
            throughElements = throughElements || nextIsElements
        }
        return Self.resolved(start)
    }

    /// The value of `keys[index]` of `node`, which a key path reached (or starts at).
    private func read(_ key: String, of node: Item, keys: [String], index: Int,
                      throughElements: Bool) throws -> PredicateValue {
        let path = keys.joined(separator: ".")
        let before = index == 0 ? "SELF" : "'\(keys[..<index].joined(separator: "."))'"
        switch node {
        case .object(let object):
            return try object.predicateValue(forKey: key)
        case .value(.null):
            // Only the value evaluated can be nil here (a nil met on the way ends its branch): `evaluate(with: nil)`
            // reads nil for every key, as key-value coding does when sent to nil.
            return .null
        case .value(let value):
            // `self` is the one key every value answers, as in `scores.@sum.self`.
            if key == "self" { return .value(value) }
            throw Failure(message: "\(before) is \(value.kindName) \(value), not an object, so '\(key)' cannot be read "
                          + "from it (only managed objects and dictionaries have keys; a value answers only 'self')",
                          keyPath: path)
        case .opaque(let name):
            if key == "self" { return .opaque(typeName: name) }
            throw Failure(message: "\(before) is a \(name), which is not key-value coding compliant for the key "
                          + "'\(key)': predicates read the keys of managed objects and dictionaries (and of each "
                          + "element of an array or set); NSPredicate reads keys through key-value coding, which a "
                          + "\(name) does not support", keyPath: path)
        case .collection, .objectID:
            throw nestedCollection(keys, index)
        }
    }

    private func nestedCollection(_ keys: [String], _ index: Int) -> Failure {
        Failure(message: "'\(keys[...index].joined(separator: "."))' reaches a collection inside a collection (an array "
                + "or set of arrays, sets or to-many relationships), which a predicate cannot compare element by "
                + "element; filter the inner collections one by one", keyPath: keys.joined(separator: "."))
    }

    /// Whether the keys after `keys[index]` (a to-one of `object`) pass through or end at a to-many relationship.
    /// Known only for managed objects, whose entity says; other evaluables answer `false`.
    private static func crossesToMany(_ object: any PredicateEvaluable, _ keys: [String], after index: Int) -> Bool {
        guard let managed = object as? ManagedObject,
              let first = managed.entity.propertyIndexByName[keys[index]],
              var entity = managed.entity.relationshipAt[first]?.destinationEntity else { return false }
        for key in keys[(index + 1)...] {
            guard let position = entity.propertyIndexByName[key],
                  let relationship = entity.relationshipAt[position] else { return false }
            if relationship.isToMany { return true }
            entity = relationship.destinationEntity
        }
        return false
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` over the to-many at the end of `collection`.
    private func apply(_ op: PredicateOperand.CollectionOperator, collection: [String],
                       key: [String]) throws -> PersistentValue {
        let path = PredicateFormatter.format(.collectionOperation(op, collection: collection, key: key))
        let (elements, plain) = try elements(of: collection, needs: "\(op.name) needs a to-many key path before it",
                                             path: path)
        if op == .count { return .integer(Int64(elements.count)) }

        var values: [PersistentValue] = []
        for element in elements {
            // The elements of an array or set may be values (`scores.@sum.self`); a relationship's are objects.
            if !plain { guard case .object = element else { continue } }
            let found: [Item]
            switch try follow(key, from: element) {
            case .single(let item): found = [item]
            case .nilOnTheWay: found = []
            case .collection(let items), .fanOut(let items): found = items
            case .elements:
                throw Failure(message: "\(op.name) needs values, but '\(key.joined(separator: "."))' is a collection",
                              keyPath: path)
            }
            for item in found {
                switch item {
                case .value(let value) where !value.isNull: values.append(value)
                case .value: break
                default:
                    throw Failure(message: "\(op.name) needs values, but '\(key.joined(separator: "."))' is "
                                  + (item.kindName == "object" ? "an object" : item.kindName), keyPath: path)
                }
            }
        }
        switch op {
        case .sum, .avg: return try arithmetic(op, values, path: path)
        default: return try extreme(op, values, path: path)
        }
    }

    private func arithmetic(_ op: PredicateOperand.CollectionOperator, _ values: [PersistentValue],
                            path: String) throws -> PersistentValue {
        var integerSum: Int64 = 0
        var integerOverflow = false
        var doubleSum = 0.0
        var decimalSum = Decimal(0)
        var sawDouble = false, sawDecimal = false
        for value in values {
            switch value {
            case .integer, .bool:
                let i = Self.integer(value) ?? 0
                let (sum, overflow) = integerSum.addingReportingOverflow(i)
                integerSum = sum
                integerOverflow = integerOverflow || overflow
                doubleSum += Double(i)
                decimalSum += Decimal(i)
            case .double(let d):
                sawDouble = true
                doubleSum += d
            case .decimal(let d):
                sawDecimal = true
                decimalSum += d
                doubleSum += NSDecimalNumber(decimal: d).doubleValue
            default:
                throw Failure(message: "\(op.name) needs numbers, but found \(value.kindName) \(value)", keyPath: path)
            }
        }
        if op == .sum {
            if sawDecimal && !sawDouble { return .decimal(decimalSum) }
            if sawDouble || sawDecimal { return .double(doubleSum) }
            if integerOverflow {
                throw Failure(message: "@sum overflows a 64-bit integer", keyPath: path)
            }
            return .integer(integerSum)
        }
        guard !values.isEmpty else { return .null }
        if sawDecimal && !sawDouble { return .decimal(decimalSum / Decimal(values.count)) }
        return .double(doubleSum / Double(values.count))
    }

    private func extreme(_ op: PredicateOperand.CollectionOperator, _ values: [PersistentValue],
                         path: String) throws -> PersistentValue {
        guard var best = values.first else { return .null }
        for value in values.dropFirst() {
            let result: ComparisonResult?
            switch (value, best) {
            case (.string(let x), .string(let y)): result = StringComparison.compare(x, y)
            case (.date(let x), .date(let y)): result = x.compare(y)
            default:
                // NaN is unordered; it never becomes the minimum or the maximum.
                if Self.isNumber(value), Self.isNumber(best) {
                    result = Self.compareNumbers(value, best) ?? .orderedSame
                } else {
                    result = nil
                }
            }
            guard let result else {
                throw Failure(message: "\(op.name) needs numbers, strings or dates of one kind, but found "
                              + "\(best.kindName) and \(value.kindName)", keyPath: path)
            }
            if (op == .min && result == .orderedAscending) || (op == .max && result == .orderedDescending) {
                best = value
            }
        }
        switch best {
        case .string, .date, .integer, .double, .decimal, .bool: return best
        default:
            throw Failure(message: "\(op.name) needs numbers, strings or dates, but found \(best.kindName)",
                          keyPath: path)
        }
    }
}
