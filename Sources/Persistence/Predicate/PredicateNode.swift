/// The tree of a predicate: what the in-memory evaluator and the SQL compiler walk.
///
/// Invariants (the parser, the argument conversion and ``FetchPredicate``'s builders keep them):
/// - `.and` and `.or` have at least two children, and a child is never the same kind of compound as its parent:
///   `a AND (b AND c)` is `.and([a, b, c])`. An empty AND is `.constant(true)`, an empty OR `.constant(false)`.
/// - `NONE p` is stored as `.not(p with the .any modifier)`, as NSPredicate does.
/// - Every comparison satisfies ``PredicateComparison/structuralProblem()`` == nil.
indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// True when every child is; evaluated left to right, stopping at the first false one.
    case and([PredicateNode])
    /// True when any child is; evaluated left to right, stopping at the first true one.
    case or([PredicateNode])
    /// `NOT p`, `!p`.
    case not(PredicateNode)
    /// `left operator[options] right`, possibly with `ANY` or `ALL`.
    case comparison(PredicateComparison)

    /// The conjunction of `children`, flattened and normalized as the invariants require.
    static func conjunction(_ children: [PredicateNode]) -> PredicateNode {
        let flat = children.flatMap { child -> [PredicateNode] in
            if case .and(let grandchildren) = child { return grandchildren }
            return [child]
        }
        switch flat.count {
        case 0: return .constant(true)
        case 1: return flat[0]
        default: return .and(flat)
        }
    }

    /// The disjunction of `children`, flattened and normalized as the invariants require.
    static func disjunction(_ children: [PredicateNode]) -> PredicateNode {
        let flat = children.flatMap { child -> [PredicateNode] in
            if case .or(let grandchildren) = child { return grandchildren }
            return [child]
        }
        switch flat.count {
        case 0: return .constant(false)
        case 1: return flat[0]
        default: return .or(flat)
        }
    }
}
