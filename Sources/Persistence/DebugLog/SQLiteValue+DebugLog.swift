import Foundation

extension SQLiteValue {
    /// The value as the SQL debug log shows a binding, always on one line of printable text: numbers as they are,
    /// text quoted with quotes, backslashes, control characters (NUL among them) and other invisible characters
    /// escaped, bytes as their count and the first 32 in hex.
    var debugLogDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let text): return Self.quoted(text)
        case .blob(let data):
            let shown = data.prefix(32).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
            return "<\(data.count) bytes" + (data.isEmpty ? "" : ": " + shown + (data.count > 32 ? "…" : "")) + ">"
        }
    }

    /// `text` between double quotes, escaped so that it prints on one line and cannot be mistaken for the end of
    /// the value or of the line.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                // Control and format characters (NUL, escape, bidirectional marks, line separators…) as code points.
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
