/// Marked regions of a source file, so a lesson can show code that the package compiles.
///
/// A region runs from a line `// region: NAME` to a line `// endregion: NAME` (`#` comments work the same, for
/// shell scripts). Regions may nest or overlap; marker lines of other regions inside are left out of the
/// excerpt, and the excerpt is dedented by its common indentation.
public enum CodeRegion {
    /// Why a region could not be taken from a file.
    public enum Problem: Error, Equatable, Sendable {
        case missing(name: String, available: [String])
        case unclosed(name: String, line: Int)
        case duplicate(name: String, line: Int)
        case empty(name: String)
    }

    /// The lines of region `name` in `source`, dedented, without marker lines.
    public static func extract(_ name: String, from source: String) -> Result<String, Problem> {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var start: Int?, end: Int?
        for (index, line) in lines.enumerated() {
            guard let marker = marker(in: line), marker.name == name else { continue }
            if marker.opens {
                if start != nil { return .failure(.duplicate(name: name, line: index + 1)) }
                start = index
            } else if start != nil, end == nil {
                end = index
            }
        }
        guard let start else { return .failure(.missing(name: name, available: names(in: source))) }
        guard let end else { return .failure(.unclosed(name: name, line: start + 1)) }
        let body = lines[(start + 1)..<end].filter { marker(in: $0) == nil }
        guard body.contains(where: { !$0.trimmingWhitespace.isEmpty }) else { return .failure(.empty(name: name)) }
        return .success(dedent(body).joined(separator: "\n"))
    }

    /// Every region name opened in `source`, in order.
    public static func names(in source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            marker(in: String(line)).flatMap { $0.opens ? $0.name : nil }
        }
    }

    /// `source` without its region marker lines: what a reader of the whole file should see.
    public static func removingMarkers(from source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { marker(in: String($0)) == nil }
            .joined(separator: "\n")
    }

    private static func marker(in line: String) -> (opens: Bool, name: String)? {
        var text = Substring(line.trimmingWhitespace)
        if text.hasPrefix("//") { text = text.dropFirst(2) } else if text.hasPrefix("#") { text = text.dropFirst() } else {
            return nil
        }
        text = Substring(text.trimmingWhitespace)
        for (keyword, opens) in [("region:", true), ("endregion:", false)] where text.hasPrefix(keyword) {
            let name = text.dropFirst(keyword.count).trimmingWhitespace
            return name.isEmpty ? nil : (opens, name)
        }
        return nil
    }

    private static func dedent(_ lines: [String]) -> [String] {
        let indents = lines.filter { !$0.trimmingWhitespace.isEmpty }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }
        let common = indents.min() ?? 0
        var result = lines.map { $0.trimmingWhitespace.isEmpty ? "" : String($0.dropFirst(common)) }
        while result.first == "" { result.removeFirst() }
        while result.last == "" { result.removeLast() }
        return result
    }
}

extension CodeRegion.Problem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .missing(let name, let available):
            let list = available.isEmpty ? "the file marks no regions" : "regions in the file: " + available.joined(separator: ", ")
            return "no region \"\(name)\" (\(list)); mark one with `// region: \(name)` … `// endregion: \(name)`"
        case .unclosed(let name, let line):
            return "region \"\(name)\" opened on line \(line) is never closed with `// endregion: \(name)`"
        case .duplicate(let name, let line):
            return "region \"\(name)\" is opened a second time on line \(line)"
        case .empty(let name):
            return "region \"\(name)\" is empty"
        }
    }
}
