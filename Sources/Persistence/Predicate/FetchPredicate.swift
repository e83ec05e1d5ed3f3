/// A condition on objects, written as a Core Data predicate format string — Core Data's `NSPredicate`.
///
/// ```swift
/// let recent = FetchPredicate(format: "year >= %d AND title CONTAINS[cd] %@", 2000, "star")
/// let cast = FetchPredicate(format: "ANY actors.name == %@ AND director == %@", "Kim", director)
/// let typed = try FetchPredicate(parsing: searchField.text)      // a format you did not write: an error to handle
/// ```
///
/// As in Core Data, `init(format:)` takes a format you wrote and does not throw: a malformed one is a programming
/// error that stops the program with the parser's message (Core Data raises `NSInvalidArgumentException`), unless
/// ``programmingErrorHandling`` says otherwise. A format from elsewhere — typed by a user, read from a file — goes
/// through ``init(parsing:_:)``, which throws instead.
///
/// Supported: comparisons `== = != <> < <= =< > >= =>`, `BETWEEN`, `IN`, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`,
/// `LIKE` (`*`, `?`), `MATCHES` (ICU regular expressions, whole string), with options `[c]`, `[d]`, `[n]`;
/// `AND && OR || NOT !` and parentheses (NOT binds tighter than AND, AND tighter than OR); `TRUEPREDICATE`,
/// `FALSEPREDICATE`; strings, numbers, `TRUE YES FALSE NO NIL NULL`, lists `{…}`, `$VARIABLES`; key paths through
/// to-one and to-many relationships (also several to-manys deep), `SELF`, `@count @sum @avg @min @max`,
/// `ANY SOME ALL NONE`, and `SUBQUERY(collection, $x, predicate).@count`. A key that is a reserved word is written
/// with `#` (`#in`). The exact meaning of each operator, nil and type rules included, is written where it is
/// implemented (`PredicateComparison`, in the source).
///
/// Arguments are converted when the predicate is made (see ``init(format:_:)``), so a predicate holds only values
/// and object IDs: it is `Sendable`, can be shared between contexts, and compares and hashes by its structure.
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The tree the SQL compiler and the in-memory evaluator read.
    let expression: PredicateNode

    init(expression: PredicateNode) {
        self.expression = expression
    }

    /// Parses a predicate format string, replacing its placeholders with `arguments` in order.
    ///
    /// Placeholders: `%@` (a value, an object or a collection), `%K` (a key path, given as a string such as
    /// `"director.name"`; also after a dot, `%K.%K`), `%d %i %u %x %o` with length modifiers (`%ld %lld %lu`…: an
    /// integer), `%f %e %g %a` with length modifiers (`%lf %la`…: a floating-point number), `%s` (a string).
    /// `%@` accepts nil and `NSNull`, `String`, `NSNumber`, `Date`, `UUID`, `URL`, `Data`, `Decimal`,
    /// ``PersistentValue``, ``ManagedObjectID``, a managed object (kept as its ID), and arrays or sets of those and of
    /// Swift numbers and Booleans.
    ///
    /// A Swift integer, floating-point number or `Bool` given on its own for `%@` is a mistake, as in Core Data:
    /// `NSPredicate(format:_:)` passes its arguments as C varargs, and `%@` reads such a value as an object pointer
    /// (a crash on a device). Here it is refused as a malformed format. Pass an `NSNumber` (`NSNumber(value: 3)`,
    /// `NSNumber(value: true)`), or write `%d` or `%f` in its place. Inside an array (for `IN`), and in
    /// ``init(format:argumentArray:)``, numbers are accepted: on Apple the array bridges them to `NSNumber`s.
    ///
    /// A malformed format — a syntax error, too few or too many arguments, one of an unsupported type — is handled
    /// as ``programmingErrorHandling`` says: by default the program stops with the parser's message, as Core Data
    /// raises. Use ``init(parsing:_:)`` to get the error instead.
    public init(format: String, _ arguments: Any?...) {
        self.init(format: format, arguments: arguments, variadic: true)
    }

    /// Parses a predicate format string, replacing its placeholders with the elements of `argumentArray` in order.
    /// See ``init(format:_:)``. The array's numbers and Booleans may stand for `%@`: on Apple,
    /// `NSPredicate(format:argumentArray:)` receives them bridged to `NSNumber`.
    public init(format: String, argumentArray: [Any?]) {
        self.init(format: format, arguments: argumentArray, variadic: false)
    }

    private init(format: String, arguments: [Any?], variadic: Bool) {
        do {
            self.expression = try PredicateParser.parse(format: format, arguments: arguments, variadic: variadic)
        } catch let error as FetchPredicateError {
            self.expression = Self.handleMalformedFormat(error)
        } catch {
            self.expression = Self.handleMalformedFormat(FetchPredicateError(.syntax, "\(error)", format: format))
        }
    }

    /// Parses a format that may be malformed — typed by a user, read from a file — as ``init(format:_:)`` does,
    /// throwing instead of stopping when it is. Persistence-only (Core Data raises an exception), so declared in the
    /// `PredicateParsing` SPI group: `@_spi(PredicateParsing) import Persistence`.
    ///
    /// - Throws: ``FetchPredicateError`` — `.syntax` for a malformed format, `.argument` for too few or too many
    ///   arguments, one of an unsupported type, or a Swift number or `Bool` for `%@` (see ``init(format:_:)``) — with
    ///   the offending position.
    @_spi(PredicateParsing) public init(parsing format: String, _ arguments: Any?...) throws {
        self.expression = try PredicateParser.parse(format: format, arguments: arguments, variadic: true)
    }

    /// Parses a format that may be malformed, with its arguments in an array. See ``init(parsing:_:)``.
    @_spi(PredicateParsing) public init(parsing format: String, argumentArray: [Any?]) throws {
        self.expression = try PredicateParser.parse(format: format, arguments: argumentArray)
    }

    /// `TRUEPREDICATE` (every object matches) or `FALSEPREDICATE` (none does).
    public init(value: Bool) {
        self.expression = .constant(value)
    }

    /// True when every subpredicate is; `TRUEPREDICATE` for none. Persistence's shorthand, in the
    /// `PredicateCompounds` SPI group: Core Data spells it `NSCompoundPredicate(andPredicateWithSubpredicates:)`,
    /// which is ``CompoundPredicate``'s ``init(andPredicateWithSubpredicates:)`` here.
    ///
    /// Predicates nest at most 100 levels. These builders cannot throw, so a result nested deeper is a predicate that
    /// fails with an error saying so when it is evaluated or used in a fetch (its ``predicateFormat`` says so too).
    /// The same holds for ``or(_:)`` and ``not(_:)``.
    @_spi(PredicateCompounds) public static func and(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        FetchPredicate(expression: .limited(.conjunction(subpredicates.map(\.expression))))
    }

    /// True when any subpredicate is; `FALSEPREDICATE` for none (Core Data:
    /// `NSCompoundPredicate(orPredicateWithSubpredicates:)`). `PredicateCompounds` SPI, as ``and(_:)``.
    @_spi(PredicateCompounds) public static func or(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        FetchPredicate(expression: .limited(.disjunction(subpredicates.map(\.expression))))
    }

    /// True when `predicate` is false (Core Data: `NSCompoundPredicate(notPredicateWithSubpredicate:)`).
    /// `PredicateCompounds` SPI, as ``and(_:)``.
    @_spi(PredicateCompounds) public static func not(_ predicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate(expression: .limited(.not(predicate.expression)))
    }

    /// The predicate as a canonical format string, which parses back to an equal predicate. Constants with no
    /// literal (dates, UUIDs, URLs, data, decimals, objects) are written with `CAST`, as NSPredicate does for dates.
    public var predicateFormat: String {
        PredicateFormatter.format(expression)
    }

    public var description: String { predicateFormat }
}
