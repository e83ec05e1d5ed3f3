extension TerminalRenderer {
    /// A table in aligned columns when it fits; otherwise one record per row ("Header: value" lines), which
    /// stays readable in any width.
    func table(_ table: MarkdownTable, width: Int) -> [StyledText] {
        let header = table.header.map { styled($0, base: TextStyle(bold: true)) }
        let rows = table.rows.map { $0.map { styled($0, base: .plain) } }
        let columns = table.alignments.count
        var widths = header.map(\.width)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.width) }
        }
        let total = widths.reduce(0, +) + 3 * (columns - 1)
        let singleLine = !(header + rows.flatMap { $0 }).contains { $0.plainText.contains("\n") }
        guard total <= width, singleLine else { return records(header: header, rows: rows, width: width) }

        let separator = StyledText(" │ ", TextStyle(dim: true))
        func line(_ cells: [StyledText]) -> StyledText {
            var result = StyledText()
            for (column, cell) in cells.enumerated() {
                if column > 0 { result.append(separator) }
                let padding = widths[column] - cell.width
                let (left, right): (Int, Int)
                switch table.alignments[column] {
                case .right: (left, right) = (padding, 0)
                case .center: (left, right) = (padding / 2, padding - padding / 2)
                case .left, .none: (left, right) = (0, padding)
                }
                result.append(String(repeating: " ", count: left))
                result.append(cell)
                // No padding after the last column: no trailing spaces in the output.
                if column < columns - 1 { result.append(String(repeating: " ", count: right)) }
            }
            return result
        }
        let rule = StyledText(widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─"),
                              TextStyle(dim: true))
        return [line(header), rule] + rows.map(line)
    }

    private func records(header: [StyledText], rows: [[StyledText]], width: Int) -> [StyledText] {
        var result: [StyledText] = []
        for (index, row) in rows.enumerated() {
            if index > 0 { result.append(StyledText("─", TextStyle(dim: true))) }
            for (column, cell) in row.enumerated() {
                var line = header[column]
                line.append(": ", TextStyle(bold: true))
                line.append(cell)
                result += line.wrapped(width: width)
            }
        }
        return result
    }
}
