import Foundation

/// Writes a predicate tree back as a format string, in a canonical form that ``PredicateParser`` reads back to the
/// same tree: keywords in capitals, `==`/`!=`/`<=`/`>=`, strings in double quotes, parentheses only where precedence
/// needs them, reserved words used as keys escaped with `#`, and constants with no literal written with `CAST`.
enum PredicateFormatter {
    /// `variable` is the iteration variable of the SUBQUERY the expression is the predicate of: its key paths
    /// and `SELF` start from that variable.
    static func format(_ expression: PredicateNode, variable: String? = nil) -> String {
        func format(_ node: PredicateNode) -> String { Self.format(node, variable: variable) }
        switch expression {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let children):
            guard !children.isEmpty else { return "TRUEPREDICATE" }
            return children.map { child in
                if case .or = child { return "(\(format(child)))" }
                if case .and = child { return "(\(format(child)))" }
                return format(child)
            }.joined(separator: " AND ")
        case .or(let children):
            guard !children.isEmpty else { return "FALSEPREDICATE" }
            return children.map { child in
                if case .or = child { return "(\(format(child)))" }
                return format(child)
            }.joined(separator: " OR ")
        case .not(let inner):
            switch inner {
            case .and, .or: return "NOT (\(format(inner)))"
            default: return "NOT \(format(inner))"
            }
        case .comparison(let comparison):
            return Self.format(comparison, variable: variable)
        case .tooDeep(let depth):
            // Not a format that parses: there is none for such a predicate.
            return "<\(PredicateNode.tooDeepMessage(depth))>"
        case .malformed(let malformed):
            return "<malformed format: \(malformed.error.message)>"
        }
    }

    static func format(_ comparison: PredicateComparison, variable: String? = nil) -> String {
        var text = ""
        switch comparison.modifier {
        case .direct: break
        case .any: text = "ANY "
        case .all: text = "ALL "
        }
        text += format(comparison.left, variable: variable) + " " + comparison.operator.symbol + format(comparison.options)
        return text + " " + format(comparison.right, variable: variable)
    }

    static func format(_ options: StringComparison.Options) -> String {
        guard !options.isEmpty else { return "" }
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        return "[\(letters)]"
    }

    static func format(_ operand: PredicateOperand, variable: String? = nil) -> String {
        // Inside a SUBQUERY, paths start from its variable: `$x.name`, `$x`.
        func path(_ text: String) -> String { variable.map { "$\($0)." + text } ?? text }
        switch operand {
        case .constant(let value):
            return literal(value)
        case .object(let id):
            return "CAST(\(quoted(id.uriRepresentation().absoluteString)), \"NSManagedObjectID\")"
        case .aggregate(let elements):
            return "{" + elements.map { format($0, variable: variable) }.joined(separator: ", ") + "}"
        case .evaluatedObject:
            return variable.map { "$" + $0 } ?? "SELF"
        case .keyPath(let keys):
            return path(keyPath(keys))
        case .collectionOperation(let op, let collection, let key):
            let rest = ([op.name] + (key.isEmpty ? [] : [keyPath(key)])).joined(separator: ".")
            // No keys before the operator: the object evaluated (or the SUBQUERY's variable) is the collection.
            if collection.isEmpty { return (variable.map { "$" + $0 } ?? "SELF") + "." + rest }
            return path(keyPath(collection) + "." + rest)
        case .variable(let name):
            return "$" + name
        case .subqueryCount(let collection, let inner, let predicate):
            let source = collection.isEmpty ? variable.map { "$" + $0 } ?? "SELF" : path(keyPath(collection))
            return "SUBQUERY(\(source), $\(inner), \(format(predicate, variable: inner))).@count"
        }
    }

    /// Keys joined with dots; a key that is a reserved word gets a `#`.
    static func keyPath(_ keys: [String]) -> String {
        keys.map { PredicateToken.Keyword(word: $0) == nil ? $0 : "#" + $0 }.joined(separator: ".")
    }

    static func literal(_ value: PersistentValue) -> String {
        switch value {
        case .null: return "nil"
        case .string(let string): return quoted(string)
        case .integer(let integer): return String(integer)
        case .double(let double):
            // Swift prints the shortest text that reads back as the same Double, always with '.' or 'e'.
            guard double.isFinite else { return "CAST(\(quoted(String(double))), \"NSNumber\")" }
            return String(double)
        case .bool(let bool): return bool ? "TRUE" : "FALSE"
        case .date(let date): return "CAST(\(String(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .uuid(let uuid): return "CAST(\(quoted(uuid.uuidString)), \"NSUUID\")"
        case .uri(let url): return "CAST(\(quoted(url.absoluteString)), \"NSURL\")"
        case .data(let data): return "CAST(\(quoted(data.base64EncodedString())), \"NSData\")"
        case .decimal(let decimal): return "CAST(\(quoted(decimal.description)), \"NSDecimalNumber\")"
        }
    }

    /// A double-quoted string literal with the escapes the lexer reads.
    static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
