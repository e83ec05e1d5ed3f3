/// Core Data builds `AND`, `OR` and `NOT` predicates with `NSCompoundPredicate`, a subclass of `NSPredicate`. A
/// ``FetchPredicate`` is a value with no subclasses, so the compound initialisers are its own, and
/// ``CompoundPredicate`` names the same type: `CompoundPredicate(andPredicateWithSubpredicates: [a, b])` is a
/// `FetchPredicate`, usable wherever one is. (Code ported from Apple platforms can say
/// `typealias NSCompoundPredicate = CompoundPredicate`.)
public typealias CompoundPredicate = FetchPredicate

extension FetchPredicate {
    /// True when every subpredicate is; `TRUEPREDICATE` for none (Core Data's
    /// `NSCompoundPredicate(andPredicateWithSubpredicates:)`).
    public init(andPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self = .and(subpredicates)
    }

    /// True when any subpredicate is; `FALSEPREDICATE` for none (`NSCompoundPredicate(orPredicateWithSubpredicates:)`).
    public init(orPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self = .or(subpredicates)
    }

    /// True when `predicate` is false (`NSCompoundPredicate(notPredicateWithSubpredicate:)`).
    public init(notPredicateWithSubpredicate predicate: FetchPredicate) {
        self = .not(predicate)
    }
}
