/// The tree of a predicate: what the in-memory evaluator and the SQL compiler walk.
///
/// Invariants (the parser, the argument conversion and ``FetchPredicate``'s builders keep them):
/// - `.and` and `.or` have at least two children, and a child is never the same kind of compound as its parent:
///   `a AND (b AND c)` is `.and([a, b, c])`. An empty AND is `.constant(true)`, an empty OR `.constant(false)`.
/// - `NONE p` is stored as `.not(p with the .any modifier)`, as NSPredicate does.
/// - Every comparison satisfies ``PredicateComparison/structuralProblem()`` == nil.
/// - No tree is deeper than ``maximumDepth``: the parser refuses deeper text, and ``FetchPredicate``'s builders
///   make ``tooDeep(_:)`` instead. So every walk of a tree may recurse without exhausting a thread's stack.
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
    /// What ``FetchPredicate``'s builders make of a tree that would be deeper than ``maximumDepth`` (its depth):
    /// evaluating or fetching with it is an error that says so.
    case tooDeep(Int)
    /// What a format that did not parse makes under ``FetchPredicate/ProgrammingErrorHandling/report(_:)``:
    /// evaluating or fetching with it is the parser's error.
    case malformed(MalformedFormat)

    /// The deepest a predicate may nest — parentheses, NOTs, ANDs and ORs, lists and CASTs in a format, subpredicates
    /// built through the API, keys in a key path — so that parsing, formatting, evaluating and compiling to SQL
    /// stay well within the 512 KB stack of a dispatch thread.
    static let maximumDepth = 100

    /// The nesting of the tree: 1 for a comparison or a constant, one more for each AND, OR or NOT around it, and
    /// one more for a SUBQUERY's predicate than for the comparison that holds it.
    /// (Measured without recursion, as it must work on any tree.)
    var depth: Int {
        var deepest = 0
        var pending: [(PredicateNode, Int)] = [(self, 1)]
        while let (node, level) = pending.popLast() {
            switch node {
            case .constant, .malformed: deepest = max(deepest, level)
            case .comparison(let comparison):
                deepest = max(deepest, level)
                // A SUBQUERY's predicate nests inside the comparison that holds it.
                for case .subqueryCount(_, _, let inner) in [comparison.left, comparison.right] {
                    pending.append((inner, level + 1))
                }
            case .tooDeep(let depth): deepest = max(deepest, level - 1 + depth)
            case .not(let inner): pending.append((inner, level + 1))
            case .and(let children), .or(let children): pending += children.map { ($0, level + 1) }
            }
        }
        return deepest
    }

    /// The message of every error about a tree that is too deep.
    static func tooDeepMessage(_ depth: Int) -> String {
        "the predicate nests \(depth) levels, more than \(maximumDepth) deep; build it flatter "
            + "(AND and OR take any number of subpredicates, and IN a list)"
    }

    /// `node`, or ``tooDeep(_:)`` when it is deeper than ``maximumDepth``.
    static func limited(_ node: PredicateNode) -> PredicateNode {
        let depth = node.depth
        return depth > maximumDepth ? .tooDeep(depth) : node
    }

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

/// The parser's error, kept in a predicate tree (compared and hashed by its text).
struct MalformedFormat: Sendable, Hashable {
    let error: FetchPredicateError

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.error.description == rhs.error.description }
    func hash(into hasher: inout Hasher) { hasher.combine(error.description) }
}
