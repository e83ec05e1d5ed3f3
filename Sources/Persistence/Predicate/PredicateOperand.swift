/// One side of a comparison (Core Data's `NSExpression`, restricted to what a persistent store can answer).
indirect enum PredicateOperand: Sendable, Hashable {
    /// A literal or a converted argument: `"x"`, `3`, `2.5`, `YES`, `nil`, a date, a UUID…
    case constant(PersistentValue)
    /// A managed object given as an argument (`SELF == %@`, `director == %@`), by identity.
    case object(ManagedObjectID)
    /// A list, `{1, 2, 3}`, or an array or set argument. Elements are only `.constant`, `.object` or `.variable`.
    case aggregate([PredicateOperand])
    /// `SELF`: the object being tested.
    case evaluatedObject
    /// A key path from the object being tested, one key per element: `name` is `["name"]`, `director.name` is
    /// `["director", "name"]`. Never empty; `SELF.name` is stored as `["name"]`. Keys are as written (or as given
    /// to `%K`), without `#` escapes.
    case keyPath([String])
    /// A collection operator applied to the to-many at the end of `collection`, then, except for `@count`, to the
    /// value at `key` of each related object: `actors.@count` is `(.count, ["actors"], [])`,
    /// `items.@sum.price` is `(.sum, ["items"], ["price"])`. `collection` is empty for `SELF.@count` (the object
    /// evaluated is an array or set; a store refuses it); `key` is empty exactly for `@count`.
    case collectionOperation(CollectionOperator, collection: [String], key: [String])
    /// `$NAME`: a substitution variable, replaced by ``FetchPredicate/withSubstitutionVariables(_:)``. Evaluating
    /// a predicate that still has one is an error.
    case variable(String)
    /// `SUBQUERY(collection, $variable, predicate).@count`: how many of the objects `collection` reaches (a key
    /// path ending at a to-many, nested to-manys flattened, or none for `SUBQUERY(SELF, …)` over an array evaluated in
    /// memory) satisfy `predicate`.
    ///
    /// `predicate` is evaluated on each of those objects: its key paths and `SELF` start from the object, so
    /// `$x.name` is stored as `["name"]` and `$x` as ``evaluatedObject``; ``variable`` is kept only to write the
    /// format back. The iteration variable shadows a substitution variable of the same name, as in NSPredicate.
    case subqueryCount(collection: [String], variable: String, predicate: PredicateNode)

    /// The collection operators of key paths.
    ///
    /// Over the values found (nil values skipped): `@count` is the number of related objects, 0 when the path meets
    /// a nil to-one; `@sum` is 0 for none, an integer when every value is one, else a double (a decimal when any
    /// value is a decimal); `@avg` is nil for none, else a double (a decimal when any value is a decimal); `@min` and
    /// `@max` are nil for none and work on numbers, strings (literal order) or dates. Over an array or set that is not
    /// a relationship, `@count` counts every element, nil ones (`NSNull`) too, as `NSArray`'s count does, and the key
    /// after the other operators may be `self` for its values themselves (`scores.@sum.self`).
    enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
        case count, sum, avg, min, max

        /// As written in a key path: `@count`, `@sum`, …
        var name: String { "@" + rawValue }
    }

    /// `true` for `.keyPath`.
    var isKeyPath: Bool {
        if case .keyPath = self { return true }
        return false
    }
}

extension PredicateOperand {
    /// Structural equality, except that NaN equals NaN: a predicate holding NaN must equal itself (and hash alike)
    /// for `Hashable` to hold, although NaN matches no value when the predicate is evaluated.
    static func == (lhs: PredicateOperand, rhs: PredicateOperand) -> Bool {
        switch (lhs, rhs) {
        case (.constant(let a), .constant(let b)): return a == b || (isNaN(a) && isNaN(b))
        case (.object(let a), .object(let b)): return a == b
        case (.aggregate(let a), .aggregate(let b)): return a == b
        case (.evaluatedObject, .evaluatedObject): return true
        case (.keyPath(let a), .keyPath(let b)): return a == b
        case (.collectionOperation(let op, let collection, let key), .collectionOperation(let op2, let collection2, let key2)):
            return op == op2 && collection == collection2 && key == key2
        case (.variable(let a), .variable(let b)): return a == b
        case (.subqueryCount(let a, let v, let p), .subqueryCount(let b, let w, let q)):
            return a == b && v == w && p == q
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .constant(let value):
            hasher.combine(0)
            // Every NaN hashes alike, whatever its payload, as every NaN is equal here.
            if Self.isNaN(value) { hasher.combine("NaN") } else { hasher.combine(value) }
        case .object(let id): hasher.combine(1); hasher.combine(id)
        case .aggregate(let items): hasher.combine(2); hasher.combine(items)
        case .evaluatedObject: hasher.combine(3)
        case .keyPath(let keys): hasher.combine(4); hasher.combine(keys)
        case .collectionOperation(let op, let collection, let key):
            hasher.combine(5); hasher.combine(op); hasher.combine(collection); hasher.combine(key)
        case .variable(let name): hasher.combine(6); hasher.combine(name)
        case .subqueryCount(let collection, let variable, let predicate):
            hasher.combine(7); hasher.combine(collection); hasher.combine(variable); hasher.combine(predicate)
        }
    }

    private static func isNaN(_ value: PersistentValue) -> Bool {
        switch value {
        case .double(let d): return d.isNaN
        case .decimal(let d): return d.isNaN
        default: return false
        }
    }
}
