/// Finds pipe tables in Markdown text before cmark sees it, since Debian's cmark has no table extension.
///
/// A table starts at the top level of the document (indented at most three spaces, outside fenced code, after a
/// blank line or at the start), with a header row and a delimiter row (`| --- | :-: |`) that has as many cells,
/// and runs until a blank line or a line without `|`. Each table's lines are replaced by an HTML comment
/// placeholder padded with blank lines, so every later block keeps its line number; ``MarkdownParser`` swaps the
/// placeholders for ``MarkdownTable`` blocks. Cells are split at every `|` not escaped as `\|` (as in GFM, also
/// inside code spans).
struct PipeTableScanner {
    /// A table found in the text: raw cell texts, not yet parsed as inline Markdown.
    struct RawTable: Equatable {
        var line: Int
        var alignments: [MarkdownTable.Alignment]
        var header: [String]
        var rows: [[String]]
    }

    /// The text with tables replaced by placeholders, and the tables in order.
    struct Result {
        var text: String
        var tables: [RawTable]
    }

    /// The placeholder for table `index`; chosen so no lesson writes it by accident.
    static func placeholder(_ index: Int) -> String {
        "<!--lessons-pipe-table:\(index)-->"
    }

    static func placeholderIndex(in html: String) -> Int? {
        let trimmed = html.trimmingWhitespace
        let prefix = "<!--lessons-pipe-table:", suffix = "-->"
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(suffix) else { return nil }
        return Int(trimmed.dropFirst(prefix.count).dropLast(suffix.count))
    }

    static func scan(_ text: String) -> Result {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var output: [String] = []
        var tables: [RawTable] = []
        var fence: (character: Character, length: Int)?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if let open = fence {
                if closesFence(line, open) { fence = nil }
                output.append(line)
                index += 1
                continue
            }
            if let opening = opensFence(line) {
                fence = opening
                output.append(line)
                index += 1
                continue
            }
            let afterBlank = index == 0 || lines[index - 1].trimmingWhitespace.isEmpty
            if afterBlank, index + 1 < lines.count, let table = table(at: index, in: lines) {
                let (raw, lineCount) = table
                output.append(placeholder(tables.count))
                output.append(contentsOf: Array(repeating: "", count: lineCount - 1))
                tables.append(raw)
                index += lineCount
                continue
            }
            output.append(line)
            index += 1
        }
        return Result(text: output.joined(separator: "\n"), tables: tables)
    }

    private static func table(at start: Int, in lines: [String]) -> (RawTable, Int)? {
        let headerLine = lines[start]
        guard indentation(of: headerLine) <= 3, headerLine.contains("|"),
              let alignments = delimiterRow(lines[start + 1]) else { return nil }
        let header = cells(of: headerLine)
        guard header.count == alignments.count else { return nil }
        var rows: [[String]] = []
        var end = start + 2
        while end < lines.count, !lines[end].trimmingWhitespace.isEmpty, lines[end].contains("|"),
              indentation(of: lines[end]) <= 3 {
            var row = cells(of: lines[end])
            // GFM: short rows get empty cells, extra cells are ignored.
            if row.count < alignments.count { row += Array(repeating: "", count: alignments.count - row.count) }
            rows.append(Array(row.prefix(alignments.count)))
            end += 1
        }
        return (RawTable(line: start + 1, alignments: alignments, header: header, rows: rows), end - start)
    }

    /// Parses `| --- | :--: | --: |` into alignments, or nil when the line is not a delimiter row.
    static func delimiterRow(_ line: String) -> [MarkdownTable.Alignment]? {
        guard indentation(of: line) <= 3, line.contains("|") || line.contains("-") else { return nil }
        let parts = cells(of: line)
        guard !parts.isEmpty else { return nil }
        var alignments: [MarkdownTable.Alignment] = []
        for part in parts {
            let left = part.hasPrefix(":"), right = part.hasSuffix(":")
            let dashes = part.drop(while: { $0 == ":" }).reversed().drop(while: { $0 == ":" })
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == "-" }) else { return nil }
            switch (left, right) {
            case (true, true): alignments.append(.center)
            case (true, false): alignments.append(.left)
            case (false, true): alignments.append(.right)
            case (false, false): alignments.append(.none)
            }
        }
        // A lone `---` line is a thematic break or a setext underline, not a one-column table.
        guard parts.count > 1 || line.contains("|") else { return nil }
        return alignments
    }

    /// Splits a row at unescaped pipes, dropping the optional outer pipes and trimming each cell.
    static func cells(of line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var iterator = line.trimmingWhitespace.makeIterator()
        while let character = iterator.next() {
            if character == "\\" {
                guard let next = iterator.next() else { current.append(character); break }
                // `\|` is a literal pipe inside a cell; other escapes are left for cmark.
                if next == "|" { current.append("|") } else { current.append(character); current.append(next) }
            } else if character == "|" {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        cells.append(current)
        let trimmed = line.trimmingWhitespace
        if trimmed.hasPrefix("|") { cells.removeFirst() }
        if trimmed.hasSuffix("|") && !trimmed.hasSuffix("\\|") && !cells.isEmpty { cells.removeLast() }
        return cells.map { $0.trimmingWhitespace }
    }

    private static func indentation(of line: String) -> Int {
        var count = 0
        for character in line {
            if character == " " { count += 1 } else if character == "\t" { count += 4 } else { break }
        }
        return count
    }

    private static func opensFence(_ line: String) -> (character: Character, length: Int)? {
        guard indentation(of: line) <= 3 else { return nil }
        let trimmed = line.drop(while: { $0 == " " })
        guard let first = trimmed.first, first == "`" || first == "~" else { return nil }
        let length = trimmed.prefix(while: { $0 == first }).count
        guard length >= 3 else { return nil }
        // A backtick fence's info string may not contain backticks (CommonMark 4.5).
        if first == "`" && trimmed.dropFirst(length).contains("`") { return nil }
        return (first, length)
    }

    private static func closesFence(_ line: String, _ fence: (character: Character, length: Int)) -> Bool {
        guard indentation(of: line) <= 3 else { return false }
        let trimmed = line.trimmingWhitespace
        return trimmed.count >= fence.length && trimmed.allSatisfy { $0 == fence.character }
    }
}
