extension FetchPredicate {
    /// A copy with each `$NAME` variable replaced by `variables["NAME"]`, converted as a `%@` argument is (a value,
    /// an object, or an array or set for `IN`/`BETWEEN`; `NSNull()` for nil). Variables not in the predicate are
    /// ignored.
    ///
    /// A variable with no value in `variables`, a value of an unsupported type, or one that does not fit where its
    /// variable stands (a list for `==`, three values for `BETWEEN`) is a programming error, as a malformed format
    /// is: Core Data raises an exception, and this stops the program with the error's message unless
    /// ``programmingErrorHandling`` says otherwise (then the copy fails with the error wherever it is used).
    /// ``withSubstitutionVariables(checking:)`` throws the error instead.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> FetchPredicate {
        do {
            return try withSubstitutionVariables(checking: variables.mapValues { $0 as Any? })
        } catch let error as FetchPredicateError {
            return FetchPredicate(expression: Self.handleSubstitutionError(error))
        } catch {
            return FetchPredicate(expression: Self.handleSubstitutionError(FetchPredicateError(.argument, "\(error)", format: predicateFormat)))
        }
    }

    /// A copy with the variables replaced, as ``withSubstitutionVariables(_:)`` makes it, throwing what that would
    /// stop on. Persistence-only (Core Data raises an exception), so in the `PredicateParsing` SPI group with
    /// ``init(parsing:_:)``.
    ///
    /// - Throws: ``FetchPredicateError`` (`.argument`) when a variable has no value in `variables`, a value has an
    ///   unsupported type, or a value does not fit where its variable stands.
    @_spi(PredicateParsing) public func withSubstitutionVariables(checking variables: [String: Any?]) throws -> FetchPredicate {
        let substitution = Substitution(variables: variables, original: expression)
        return FetchPredicate(expression: try substitution.apply(to: expression))
    }
}

/// Walks a tree replacing variables, re-checking each comparison it changed.
private struct Substitution {
    let variables: [String: Any?]
    let original: PredicateNode

    /// The format errors quote, made only when one is thrown.
    private var format: String { PredicateFormatter.format(original) }

    func apply(to expression: PredicateNode) throws -> PredicateNode {
        switch expression {
        case .constant, .tooDeep, .malformed:
            return expression
        case .and(let children):
            return .conjunction(try children.map(apply))
        case .or(let children):
            return .disjunction(try children.map(apply))
        case .not(let inner):
            return .not(try apply(to: inner))
        case .comparison(var comparison):
            let original = comparison
            comparison.left = try apply(to: comparison.left)
            comparison.right = try apply(to: comparison.right)
            if comparison != original, let problem = comparison.structuralProblem() {
                throw FetchPredicateError(.argument, "after substitution, \(problem.message)", format: format)
            }
            return .comparison(comparison)
        }
    }

    private func apply(to operand: PredicateOperand) throws -> PredicateOperand {
        switch operand {
        case .variable(let name):
            guard let entry = variables[name] else {
                throw FetchPredicateError(.argument, "no value for the variable $\(name)", format: format)
            }
            do {
                return try PredicateArgumentConverter.operand(for: entry)
            } catch {
                throw FetchPredicateError(.argument, "the value for $\(name): \(error.message)", format: format)
            }
        case .aggregate(let elements):
            let replaced = try elements.map { try apply(to: $0) }
            for element in replaced {
                if case .aggregate = element {
                    throw FetchPredicateError(.argument, "a list may not contain a collection (from a variable)",
                                         format: format)
                }
            }
            return .aggregate(replaced)
        case .subqueryCount(let collection, let variable, let predicate):
            // The iteration variable is not a `.variable` in the tree, so it is never substituted.
            return .subqueryCount(collection: collection, variable: variable, predicate: try apply(to: predicate))
        default:
            return operand
        }
    }
}
