import Foundation

/// Parses Core Data's predicate format strings into a ``PredicateNode``, converting the arguments as it meets
/// their placeholders.
///
/// Grammar (keywords in any letter case; a key that is a keyword is written with `#`, as in `#in`):
/// ```
/// predicate   := or
/// or          := and (("OR" | "||") and)*
/// and         := not (("AND" | "&&") not)*
/// not         := ("NOT" | "!") not | primary
/// primary     := "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
/// comparison  := [("ANY" | "SOME" | "ALL" | "NONE")] operand operator ["[" options "]"] operand
/// operator    := "==" | "=" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>" | "BETWEEN" | "IN"
///              | "CONTAINS" | "BEGINSWITH" | "ENDSWITH" | "LIKE" | "MATCHES"
/// operand     := ["-"] number | string | "TRUE" | "YES" | "FALSE" | "NO" | "NIL" | "NULL"
///              | "{" [operand ("," operand)*] "}" | "$" name [keys] | "%@" | "%K" keys | "%d" | "%f" | "%s" …
///              | "SELF" keys | key keys | "CAST" "(" operand "," string ")"
///              | "SUBQUERY" "(" operand "," "$" name "," predicate ")" "." "@count"
/// keys        := ("." (key | "%K" | "@count" | "@sum" | "@avg" | "@min" | "@max"))*
/// ```
/// Inside a SUBQUERY's predicate, `$name` (its iteration variable) starts key paths from each object of the
/// collection, as `SELF` does; any other `$name` is a substitution variable.
/// `CAST(value, "type")` makes constants that have no literal (the canonical format uses it): `NSDate` (seconds
/// since 2001-01-01, as NSPredicate), `NSNumber`, `NSString`, `NSUUID`, `NSURL`, `NSData` (base64),
/// `NSDecimalNumber`, `NSManagedObjectID` (its URI); the `NS` prefix is optional.
struct PredicateParser {
    private let format: String
    private let characters: [Character]
    private let tokens: [PredicateToken]
    private var position = 0
    private let arguments: [Any?]
    /// Whether the arguments were given one by one, as C varargs are on Apple (``FetchPredicate/init(format:_:)``),
    /// rather than in an array: then `%@` refuses a Swift number or Bool, which Core Data would read as an object.
    private let variadic: Bool
    private var nextArgument = 0
    /// How many parentheses, NOTs, lists and CASTs enclose the current position; bounded by
    /// ``PredicateNode/maximumDepth`` so that hostile input cannot exhaust the stack of a thread.
    private var depth = 0
    private static let maximumDepth = PredicateNode.maximumDepth
    /// The iteration variables of the SUBQUERYs around the current position, innermost last.
    private var iterationVariables: [String] = []

    /// The predicate written in `format`, taking placeholders' values from `arguments` in order. With `variadic`,
    /// the arguments came one by one (``FetchPredicate/init(format:_:)``), and `%@` refuses a Swift integer,
    /// floating-point number or Bool: Core Data's `NSPredicate(format:_:)` passes those as C varargs, and its `%@`
    /// reads one as an object pointer. An array's elements are objects on Apple (`[1]` bridges to an `NSNumber`), so
    /// `variadic` is false for it.
    /// - Throws: ``FetchPredicateError``: `.syntax` for malformed text, `.argument` for missing, surplus or unsupported
    ///   arguments; each with the offset of the offending token.
    static func parse(format: String, arguments: [Any?], variadic: Bool = false) throws -> PredicateNode {
        var parser = PredicateParser(format: format, tokens: try PredicateLexer.tokenize(format), arguments: arguments,
                                     variadic: variadic)
        let expression = try parser.parseFormat()
        // ANDs and ORs without parentheses add a level or two to what the parser counts.
        let depth = expression.depth
        guard depth <= maximumDepth else {
            throw FetchPredicateError(.syntax, PredicateNode.tooDeepMessage(depth), format: format)
        }
        return expression
    }

    private init(format: String, tokens: [PredicateToken], arguments: [Any?], variadic: Bool) {
        self.format = format
        self.characters = Array(format)
        self.tokens = tokens
        self.arguments = arguments
        self.variadic = variadic
    }

    // MARK: Predicates

    private mutating func parseFormat() throws -> PredicateNode {
        if case .end = current.kind {
            throw syntaxError("the format is empty; expected a predicate such as name == \"x\"", at: 0)
        }
        let expression = try parseOr()
        guard case .end = current.kind else {
            throw syntaxError("expected AND, OR or the end of the format, found \(current.quoted)", at: current.offset)
        }
        guard nextArgument == arguments.count else {
            throw FetchPredicateError(
                .argument,
                "\(arguments.count) arguments were given but the format uses \(nextArgument); "
                    + "the first unused one is at index \(nextArgument)",
                format: format, argumentIndex: nextArgument)
        }
        return expression
    }

    private mutating func parseOr() throws -> PredicateNode {
        var children = [try parseAnd()]
        while current.is(.or) || current.is(.orOr) {
            advance()
            children.append(try parseAnd())
        }
        return .disjunction(children)
    }

    private mutating func parseAnd() throws -> PredicateNode {
        var children = [try parseNot()]
        while current.is(.and) || current.is(.andAnd) {
            advance()
            children.append(try parseNot())
        }
        return .conjunction(children)
    }

    private mutating func parseNot() throws -> PredicateNode {
        guard current.is(.not) || current.is(.bang) else { return try parsePrimary() }
        try enterNesting()
        defer { depth -= 1 }
        advance()
        return .not(try parseNot())
    }

    private mutating func enterNesting() throws {
        guard depth < Self.maximumDepth else {
            throw syntaxError("the predicate nests parentheses, NOTs, lists and CASTs more than \(Self.maximumDepth) deep",
                              at: current.offset)
        }
        depth += 1
    }

    private mutating func parsePrimary() throws -> PredicateNode {
        let token = current
        switch token.kind {
        case .symbol(.openParen):
            try enterNesting()
            defer { depth -= 1 }
            advance()
            if case .end = current.kind {
                throw syntaxError("expected a predicate after '(', found the end of the format", at: current.offset)
            }
            let inner = try parseOr()
            guard current.is(.closeParen) else {
                throw syntaxError(
                    "expected ')' to close the '(' at column \(token.offset + 1), found \(current.quoted)",
                    at: current.offset)
            }
            advance()
            return inner
        case .keyword(.truePredicate):
            advance()
            return .constant(true)
        case .keyword(.falsePredicate):
            advance()
            return .constant(false)
        default:
            return try parseComparison()
        }
    }

    private mutating func parseComparison() throws -> PredicateNode {
        var modifier = PredicateComparison.Modifier.direct
        var negated = false
        let modifierToken = current
        switch current.kind {
        case .keyword(.any), .keyword(.some): modifier = .any
        case .keyword(.all): modifier = .all
        case .keyword(.none): modifier = .any; negated = true
        default: break
        }
        if modifier != .direct { advance() }

        let left = try parseOperand(after: modifier == .direct ? nil : modifierToken)
        let operatorToken = current
        guard let op = comparisonOperator(operatorToken) else {
            var message = "expected a comparison operator (==, !=, <, >, IN, CONTAINS, BEGINSWITH, LIKE, BETWEEN…) "
                + "after '\(source(from: left.offset, to: operatorToken.offset))', found \(operatorToken.quoted)"
            if operatorToken.is(.not) { message += "; to negate, write NOT (…) around the comparison" }
            throw syntaxError(message, at: operatorToken.offset)
        }
        advance()
        let options = try parseOptions()
        let right = try parseOperand(after: operatorToken)

        let comparison = PredicateComparison(left.operand, op, right.operand, modifier: modifier, options: options)
        if let problem = comparison.structuralProblem() {
            let culprit = problem.side == .left ? left : right
            if let index = culprit.argumentIndex {
                throw FetchPredicateError(.argument, "argument at index \(index): \(problem.message)", format: format,
                                     offset: culprit.offset, argumentIndex: index)
            }
            throw syntaxError(problem.message, at: culprit.offset)
        }
        return negated ? .not(.comparison(comparison)) : .comparison(comparison)
    }

    private func comparisonOperator(_ token: PredicateToken) -> PredicateComparison.Operator? {
        switch token.kind {
        case .symbol(.equal): return .equalTo
        case .symbol(.notEqual): return .notEqualTo
        case .symbol(.less): return .lessThan
        case .symbol(.lessOrEqual): return .lessThanOrEqualTo
        case .symbol(.greater): return .greaterThan
        case .symbol(.greaterOrEqual): return .greaterThanOrEqualTo
        case .keyword(.between): return .between
        case .keyword(.in): return .in
        case .keyword(.contains): return .contains
        case .keyword(.beginsWith): return .beginsWith
        case .keyword(.endsWith): return .endsWith
        case .keyword(.like): return .like
        case .keyword(.matches): return .matches
        default: return nil
        }
    }

    /// `[c]`, `[d]`, `[cd]`, `[n]`… after an operator.
    private mutating func parseOptions() throws -> StringComparison.Options {
        guard current.is(.openBracket) else { return [] }
        let open = current
        advance()
        let word = current
        switch word.kind {
        case .identifier, .keyword: break
        default:
            throw syntaxError("expected comparison options such as c, d or cd inside '[ ]', found \(word.quoted)",
                              at: word.offset)
        }
        var options: StringComparison.Options = []
        for (i, letter) in word.text.enumerated() {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            default:
                throw syntaxError("unknown comparison option '\(letter)'; use c (case-insensitive), "
                                  + "d (diacritic-insensitive) or n (normalized)", at: word.offset + i)
            }
        }
        advance()
        guard current.is(.closeBracket) else {
            throw syntaxError("expected ']' to close the '[' at column \(open.offset + 1), found \(current.quoted)",
                              at: current.offset)
        }
        advance()
        return options
    }

    // MARK: Operands

    /// An operand, where it starts, and the argument it came from (for argument errors).
    private struct Parsed {
        var operand: PredicateOperand
        var offset: Int
        var argumentIndex: Int?
    }

    /// One part of a key path as written: a key, or a collection operator's name without `@`.
    private struct KeyPathPart {
        enum Component {
            case key(String)
            case collectionOperator(String)
        }
        var component: Component
        var offset: Int
    }

    private mutating func parseOperand(after previous: PredicateToken?) throws -> Parsed {
        let token = current
        let start = token.offset
        switch token.kind {
        case .number(let text):
            advance()
            return Parsed(operand: .constant(try number(text, negative: false, at: start)), offset: start)
        case .symbol(.minus):
            advance()
            guard case .number(let text) = current.kind else {
                throw syntaxError("expected a number after '-', found \(current.quoted)", at: current.offset)
            }
            advance()
            return Parsed(operand: .constant(try number(text, negative: true, at: start)), offset: start)
        case .string(let value):
            advance()
            return Parsed(operand: .constant(.string(value)), offset: start)
        case .keyword(.true), .keyword(.yes):
            advance()
            return Parsed(operand: .constant(.bool(true)), offset: start)
        case .keyword(.false), .keyword(.no):
            advance()
            return Parsed(operand: .constant(.bool(false)), offset: start)
        case .keyword(.nil), .keyword(.null):
            advance()
            return Parsed(operand: .constant(.null), offset: start)
        case .keyword(.self):
            advance()
            return Parsed(operand: try parseKeyPath(parts: [], at: start), offset: start)
        case .identifier(let name):
            advance()
            if current.is(.openParen), token.text == name {
                switch name.uppercased() {
                case "CAST": return try parseCast(at: start)
                case "SUBQUERY": return try parseSubquery(at: start)
                default:
                    throw syntaxError("\(name)(…) is not supported; the functions are CAST(value, \"type\") and "
                                      + "SUBQUERY(collection, $x, predicate).@count", at: start)
                }
            }
            let first = KeyPathPart(component: .key(name), offset: start)
            return Parsed(operand: try parseKeyPath(parts: [first], at: start), offset: start)
        case .variable(let name):
            advance()
            if iterationVariables.last == name {
                // A SUBQUERY's own variable: the object its predicate is evaluated on, as SELF is.
                return Parsed(operand: try parseKeyPath(parts: [], at: start), offset: start)
            }
            if iterationVariables.contains(name) {
                throw syntaxError("$\(name) belongs to an enclosing SUBQUERY; inside a nested SUBQUERY only its own "
                                  + "variable ($\(iterationVariables.last!)) may start a key path", at: start)
            }
            return Parsed(operand: .variable(name), offset: start)
        case .placeholder(let placeholder):
            advance()
            return try parsePlaceholder(placeholder, token: token)
        case .symbol(.openBrace):
            return try parseAggregate()
        case .collectionOperator(let name):
            throw syntaxError("@\(name) needs a to-many key before it, as in actors.@\(name)", at: start)
        default:
            throw expectedValue(after: previous, found: token)
        }
    }

    private func expectedValue(after previous: PredicateToken?, found token: PredicateToken) -> FetchPredicateError {
        var message = previous.map { "expected a value after '\($0.text)'" } ?? "expected a key path or a value"
        if case .end = token.kind {
            message += " but the format ends"
        } else if previous == nil || token.is(.openParen) {
            message += ", found \(token.quoted)"
        }
        if token.is(.openParen) { message += "; a list is written {a, b}" }
        return syntaxError(message, at: token.offset)
    }

    /// The rest of a key path after its first part (or after `SELF`, with no parts yet): `.key`, `.@count`,
    /// `.@sum.key`… `SELF.name` and `name` are the same key path.
    private mutating func parseKeyPath(parts: [KeyPathPart], at start: Int,
                                       argumentIndex: Int? = nil) throws -> PredicateOperand {
        var parts = parts
        while current.is(.dot) {
            advance()
            let token = current
            switch token.kind {
            case .identifier(let key):
                parts.append(KeyPathPart(component: .key(key), offset: token.offset))
            case .keyword:
                // After a dot a word can only be a key, so reserved words need no escape there.
                parts.append(KeyPathPart(component: .key(token.text), offset: token.offset))
            case .collectionOperator(let name):
                parts.append(KeyPathPart(component: .collectionOperator(name), offset: token.offset))
            case .placeholder(.keyPath):
                // `%K.%K`, `director.%K`: the argument continues the key path (and may itself hold dots).
                advance()
                let (argument, index) = try takeArgument(for: token)
                parts += try keyPathParts(argument, token: token, index: index, first: false)
                continue
            default:
                throw syntaxError("expected a key or %K after '.', found \(token.quoted)", at: token.offset)
            }
            advance()
        }
        return try keyPathOperand(parts: parts) { message, offset in
            if let argumentIndex {
                return FetchPredicateError(.argument, "argument at index \(argumentIndex) for %K: \(message)",
                                      format: format, offset: start, argumentIndex: argumentIndex)
            }
            return syntaxError(message, at: offset)
        }
    }

    /// Builds the operand of a key path, checking where collection operators may appear. No keys means `SELF`.
    private func keyPathOperand(parts: [KeyPathPart],
                                error: (String, Int) -> FetchPredicateError) throws -> PredicateOperand {
        if parts.count > Self.maximumDepth {
            throw error("a key path of \(parts.count) keys is more than \(Self.maximumDepth) deep", parts[Self.maximumDepth].offset)
        }
        var keys: [String] = []
        for (i, part) in parts.enumerated() {
            switch part.component {
            case .key(let key):
                keys.append(key)
            case .collectionOperator(let name):
                guard let op = PredicateOperand.CollectionOperator(rawValue: name.lowercased()) else {
                    throw error("unknown collection operator '@\(name)'; use @count, @sum, @avg, @min or @max",
                                part.offset)
                }
                // No keys before it (`SELF.@count`): the object evaluated is the collection, as an array is.
                var valueKeys: [String] = []
                for later in parts[(i + 1)...] {
                    guard case .key(let key) = later.component else {
                        throw error("a key path may have only one collection operator", later.offset)
                    }
                    if op == .count { throw error("@count ends a key path; nothing may follow it", later.offset) }
                    valueKeys.append(key)
                }
                if op != .count, valueKeys.isEmpty {
                    throw error("\(op.name) needs a key after it, as in items.\(op.name).price", part.offset)
                }
                return .collectionOperation(op, collection: keys, key: valueKeys)
            }
        }
        return keys.isEmpty ? .evaluatedObject : .keyPath(keys)
    }

    private mutating func parseAggregate() throws -> Parsed {
        try enterNesting()
        defer { depth -= 1 }
        let open = current
        advance()
        var elements: [PredicateOperand] = []
        if current.is(.closeBrace) {
            advance()
            return Parsed(operand: .aggregate([]), offset: open.offset)
        }
        while true {
            if current.is(.openBrace) {
                // Refused before it is read: a list in a list is never valid, however deep.
                throw syntaxError("a list may hold only constants, arguments and variables, not another list",
                                  at: current.offset)
            }
            let element = try parseOperand(after: elements.isEmpty ? open : tokens[position - 1])
            switch element.operand {
            case .constant, .object, .variable:
                elements.append(element.operand)
            default:
                let message = "a list may hold only constants, arguments and variables"
                if let index = element.argumentIndex {
                    throw FetchPredicateError(.argument, "argument at index \(index): \(message), not a collection",
                                         format: format, offset: element.offset, argumentIndex: index)
                }
                throw syntaxError(message, at: element.offset)
            }
            if current.is(.comma) {
                advance()
                continue
            }
            guard current.is(.closeBrace) else {
                throw syntaxError("expected ',' or '}' to close the '{' at column \(open.offset + 1), "
                                  + "found \(current.quoted)", at: current.offset)
            }
            advance()
            return Parsed(operand: .aggregate(elements), offset: open.offset)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count`, after its name. The predicate is parsed with `$x` standing
    /// for each object of the collection (see ``PredicateOperand/subqueryCount(collection:variable:predicate:)``).
    private mutating func parseSubquery(at start: Int) throws -> Parsed {
        try enterNesting()
        defer { depth -= 1 }
        let open = current
        advance()
        let collection = try parseOperand(after: open)
        let keys: [String]
        switch collection.operand {
        case .keyPath(let path): keys = path
        case .evaluatedObject: keys = []  // SUBQUERY(SELF, …): the array or set evaluated
        default:
            throw syntaxError("SUBQUERY needs a key path to a to-many relationship as its collection, as in "
                              + "SUBQUERY(actors, $a, $a.name BEGINSWITH 'A')", at: collection.offset)
        }
        try expect(.comma, "',' and the iteration variable after the collection in SUBQUERY")
        guard case .variable(let variable) = current.kind else {
            throw syntaxError("expected the iteration variable ($x) after the collection in SUBQUERY, found \(current.quoted)",
                              at: current.offset)
        }
        advance()
        try expect(.comma, "',' and a predicate after the iteration variable in SUBQUERY")
        if case .end = current.kind {
            throw syntaxError("expected a predicate in SUBQUERY, found the end of the format", at: current.offset)
        }
        iterationVariables.append(variable)
        let predicate = try parseOr()
        iterationVariables.removeLast()
        guard current.is(.closeParen) else {
            throw syntaxError("expected ')' to close the SUBQUERY at column \(start + 1), found \(current.quoted)",
                              at: current.offset)
        }
        advance()
        let countOffset = current.offset
        guard current.is(.dot), position + 1 < tokens.count,
              case .collectionOperator(let name) = tokens[position + 1].kind, name.lowercased() == "count" else {
            throw syntaxError("SUBQUERY(…) is supported with .@count after it, as in SUBQUERY(actors, $a, "
                              + "$a.name BEGINSWITH 'A').@count > 0", at: countOffset)
        }
        advance()
        advance()
        if current.is(.dot) {
            throw syntaxError("@count ends a key path; nothing may follow it", at: current.offset)
        }
        return Parsed(operand: .subqueryCount(collection: keys, variable: variable, predicate: predicate), offset: start)
    }

    private mutating func expect(_ symbol: PredicateToken.Symbol, _ what: String) throws {
        guard current.is(symbol) else { throw syntaxError("expected \(what), found \(current.quoted)", at: current.offset) }
        advance()
    }

    // MARK: Arguments

    private mutating func takeArgument(for token: PredicateToken) throws -> (value: Any?, index: Int) {
        guard nextArgument < arguments.count else {
            throw FetchPredicateError(
                .argument,
                "no argument for \(token.text) at index \(nextArgument): only \(arguments.count) given",
                format: format, offset: token.offset, argumentIndex: nextArgument)
        }
        defer { nextArgument += 1 }
        return (arguments[nextArgument], nextArgument)
    }

    private func argumentError(_ message: String, token: PredicateToken, index: Int) -> FetchPredicateError {
        FetchPredicateError(.argument, "argument at index \(index) for \(token.text): \(message)", format: format,
                       offset: token.offset, argumentIndex: index)
    }

    private mutating func parsePlaceholder(_ placeholder: PredicateToken.Placeholder,
                                           token: PredicateToken) throws -> Parsed {
        let (argument, index) = try takeArgument(for: token)
        let operand: PredicateOperand
        do {
            switch placeholder {
            case .object:
                if variadic, let refusal = PredicateArgumentConverter.objectPlaceholderRefusal(for: argument) {
                    throw argumentError(refusal, token: token, index: index)
                }
                operand = try PredicateArgumentConverter.operand(for: argument)
            case .integer:
                operand = .constant(try PredicateArgumentConverter.integer(for: argument))
            case .float:
                operand = .constant(try PredicateArgumentConverter.double(for: argument))
            case .string:
                guard let string = PredicateArgumentConverter.string(for: argument) else {
                    let type = PredicateArgumentConverter.typeName(argument)
                    throw argumentError("expects a string, got \(type)", token: token, index: index)
                }
                operand = .constant(.string(string))
            case .keyPath:
                operand = try keyPathArgument(argument, token: token, index: index)
            }
        } catch let failure as PredicateArgumentConverter.Failure {
            throw argumentError(failure.message, token: token, index: index)
        }
        return Parsed(operand: operand, offset: token.offset, argumentIndex: index)
    }

    /// `%K`: the argument is a key path string (`"name"`, `"director.name"`, `"actors.@count"`), and the format may
    /// continue it (`%K.name`, `%K.%K`).
    private mutating func keyPathArgument(_ argument: Any?, token: PredicateToken,
                                          index: Int) throws -> PredicateOperand {
        let parts = try keyPathParts(argument, token: token, index: index, first: true)
        return try parseKeyPath(parts: parts, at: token.offset, argumentIndex: index)
    }

    /// The parts of the key path string given for a `%K`; a leading `SELF` is dropped only when the `%K` is `first`
    /// in its key path.
    private func keyPathParts(_ argument: Any?, token: PredicateToken, index: Int,
                              first: Bool) throws -> [KeyPathPart] {
        guard let string = PredicateArgumentConverter.string(for: argument) else {
            let type = PredicateArgumentConverter.typeName(argument)
            throw argumentError("%K expects a key path string, got \(type)", token: token, index: index)
        }
        var parts: [KeyPathPart] = []
        for (i, component) in string.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            let name = component.hasPrefix("@") ? component.dropFirst() : component
            guard let initial = name.first, initial.isLetter || initial == "_",
                  name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw argumentError("'\(string)' is not a key path", token: token, index: index)
            }
            if component.hasPrefix("@") {
                parts.append(KeyPathPart(component: .collectionOperator(String(name)), offset: token.offset))
            } else if first, i == 0, name.uppercased() == "SELF" {
                continue
            } else {
                parts.append(KeyPathPart(component: .key(String(name)), offset: token.offset))
            }
        }
        return parts
    }

    // MARK: Constants

    private func number(_ text: String, negative: Bool, at offset: Int) throws -> PersistentValue {
        let sign = negative ? "-" : ""
        let lower = text.lowercased()
        if lower.count > 2, lower.hasPrefix("0x") || lower.hasPrefix("0o") || lower.hasPrefix("0b") {
            let radix = lower.hasPrefix("0x") ? 16 : lower.hasPrefix("0o") ? 8 : 2
            guard let value = Int64(sign + lower.dropFirst(2), radix: radix) else {
                throw syntaxError("'\(sign)\(text)' is not a valid base-\(radix) integer of 64 bits", at: offset)
            }
            return .integer(value)
        }
        if lower.contains(".") || lower.contains("e") {
            guard let value = Double(sign + text) else {
                throw syntaxError("'\(sign)\(text)' is not a valid number", at: offset)
            }
            return .double(value)
        }
        guard let value = Int64(sign + text) else {
            throw syntaxError("the integer \(sign)\(text) does not fit in 64 bits", at: offset)
        }
        return .integer(value)
    }

    /// `CAST(value, "type")`, evaluated now into a constant. Nested CASTs are read with a loop rather than by
    /// recursion, so that even a long run of `CAST(` costs no stack; they still count towards the nesting limit.
    private mutating func parseCast(at start: Int) throws -> Parsed {
        var casts: [(start: Int, open: PredicateToken)] = [(start, current)]
        advance()
        while case .identifier(let name) = current.kind, current.text == name, name.uppercased() == "CAST",
              position + 1 < tokens.count, tokens[position + 1].is(.openParen) {
            guard depth + casts.count < Self.maximumDepth else { break }
            let castStart = current.offset
            advance()
            casts.append((castStart, current))
            advance()
        }
        guard depth + casts.count <= Self.maximumDepth else {
            throw syntaxError("the predicate nests parentheses, NOTs, lists and CASTs more than \(Self.maximumDepth) deep",
                              at: current.offset)
        }
        depth += casts.count
        defer { depth -= casts.count }
        var value = try parseOperand(after: casts[casts.count - 1].open)
        for cast in casts.reversed() {
            value = try finishCast(value, at: cast.start)
        }
        return value
    }

    /// The rest of a CAST once its value is read: `, "type")`.
    private mutating func finishCast(_ value: Parsed, at start: Int) throws -> Parsed {
        guard current.is(.comma) else {
            throw syntaxError("expected ',' and a type name after the value in CAST, found \(current.quoted)",
                              at: current.offset)
        }
        let comma = current
        advance()
        let typeOperand = try parseOperand(after: comma)
        guard case .constant(.string(let typeName)) = typeOperand.operand else {
            throw syntaxError("expected a type name string such as \"NSDate\" in CAST", at: typeOperand.offset)
        }
        guard current.is(.closeParen) else {
            throw syntaxError("expected ')' to close CAST, found \(current.quoted)", at: current.offset)
        }
        advance()
        guard case .constant(let constant) = value.operand else {
            throw syntaxError("CAST takes a constant value", at: value.offset)
        }
        let type = typeName.hasPrefix("NS") ? String(typeName.dropFirst(2)) : typeName
        let result: PredicateOperand?
        switch (type, constant) {
        case ("Date", .integer(let seconds)):
            result = .constant(.date(Date(timeIntervalSinceReferenceDate: Double(seconds))))
        case ("Date", .double(let seconds)):
            result = .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case ("Number", .string(let text)):
            result = (Int64(text).map { PersistentValue.integer($0) } ?? Double(text).map { .double($0) })
                .map { .constant($0) }
        case ("Number", .integer), ("Number", .double), ("Number", .bool), ("Number", .decimal):
            result = .constant(constant)
        case ("String", .string): result = .constant(constant)
        case ("String", .integer(let i)): result = .constant(.string(String(i)))
        case ("String", .double(let d)): result = .constant(.string(String(d)))
        case ("UUID", .string(let text)): result = UUID(uuidString: text).map { .constant(.uuid($0)) }
        case ("URL", .string(let text)): result = URL(string: text).map { .constant(.uri($0)) }
        case ("Data", .string(let text)): result = Data(base64Encoded: text).map { .constant(.data($0)) }
        case ("DecimalNumber", .string(let text)), ("Decimal", .string(let text)):
            result = Self.decimal(text).map { .constant(.decimal($0)) }
        case ("DecimalNumber", .integer(let i)), ("Decimal", .integer(let i)): result = .constant(.decimal(Decimal(i)))
        case ("ManagedObjectID", .string(let text)):
            result = URL(string: text).flatMap { ManagedObjectID(uriRepresentation: $0) }.map { .object($0) }
        case ("Date", _), ("Number", _), ("String", _), ("UUID", _), ("URL", _), ("Data", _), ("DecimalNumber", _),
             ("Decimal", _), ("ManagedObjectID", _):
            result = nil
        default:
            throw syntaxError("unknown CAST type \"\(typeName)\"; use NSDate, NSNumber, NSString, NSUUID, NSURL, "
                              + "NSData, NSDecimalNumber or NSManagedObjectID", at: typeOperand.offset)
        }
        guard let result else {
            throw syntaxError("\(constant) cannot be cast to \(typeName)", at: value.offset)
        }
        return Parsed(operand: result, offset: start)
    }

    /// A decimal from its full text only (Foundation's parser stops at the first bad character).
    private static func decimal(_ text: String) -> Decimal? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else {
            return nil
        }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[position] }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private func source(from start: Int, to end: Int) -> String {
        let upper = min(max(start, end), characters.count)
        return String(characters[start..<upper]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func syntaxError(_ message: String, at offset: Int) -> FetchPredicateError {
        FetchPredicateError(.syntax, message, format: format, offset: offset)
    }
}

extension PredicateToken {
    /// `true` when the token is the keyword.
    fileprivate func `is`(_ keyword: Keyword) -> Bool {
        if case .keyword(keyword) = kind { return true }
        return false
    }

    /// `true` when the token is the symbol.
    fileprivate func `is`(_ symbol: Symbol) -> Bool {
        if case .symbol(symbol) = kind { return true }
        return false
    }
}
