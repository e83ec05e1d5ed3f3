import Foundation

/// Why a predicate could not be built or evaluated, with the format string and, where known, the position in it.
///
/// The description shows the format with a caret under the offending position:
/// ```
/// Predicate syntax error at column 9: expected a value after '=='
///   name == AND year > 3
///           ^
/// ```
public struct FetchPredicateError: Error, Sendable, CustomStringConvertible {
    /// Which stage failed.
    public enum Kind: String, Sendable, Hashable {
        /// The format string is malformed.
        case syntax
        /// An argument or substitution variable is missing, surplus or of a type predicates cannot hold.
        case argument
        /// The predicate was well formed but cannot be applied to the object's values (e.g. `<` between a string
        /// and a number). Errors thrown by the object itself (an unknown key) are passed on unchanged instead.
        case evaluation
    }

    /// Which stage failed.
    public internal(set) var kind: Kind
    /// What is wrong, in a sentence.
    public internal(set) var message: String
    /// The format string concerned: the one given to `init(format:)` for syntax and argument errors, the
    /// predicate's canonical ``FetchPredicate/predicateFormat`` for evaluation and substitution errors.
    public internal(set) var format: String
    /// The zero-based offset, in characters, of the offending position in ``format``, when there is one.
    public internal(set) var offset: Int?
    /// For argument errors: the zero-based index of the offending argument in the argument list.
    public internal(set) var argumentIndex: Int?
    /// For evaluation errors: the key path whose value could not be used.
    public internal(set) var keyPath: String?

    init(_ kind: Kind, _ message: String, format: String = "", offset: Int? = nil, argumentIndex: Int? = nil,
         keyPath: String? = nil) {
        self.kind = kind
        self.message = message
        self.format = format
        self.offset = offset
        self.argumentIndex = argumentIndex
        self.keyPath = keyPath
    }

    /// The one-based column of ``offset``, as shown in ``description``.
    public var column: Int? { offset.map { $0 + 1 } }

    public var description: String {
        var text = "Predicate \(kind.rawValue) error"
        if let column { text += " at column \(column)" }
        text += ": \(message)"
        guard !format.isEmpty else { return text }
        // Line breaks and tabs would misplace the caret, so the quoted format shows each as one space.
        let shown = String(format.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        text += "\n  \(shown)"
        if let offset {
            text += "\n  " + String(repeating: " ", count: min(offset, shown.count)) + "^"
        }
        return text
    }
}

extension FetchPredicateError: LocalizedError {
    public var errorDescription: String? { description }
}
