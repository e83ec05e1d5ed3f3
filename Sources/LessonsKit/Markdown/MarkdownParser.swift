/// Turns Markdown text into a ``MarkdownDocument``: CommonMark through cmark, plus pipe tables.
public enum MarkdownParser {
    /// The version of the cmark library in use, for `lessons doctor`.
    public static var cmarkVersion: String { CommonMarkConverter.libraryVersion }

    /// Parses `text`. `file` (relative to the package root) only labels errors.
    public static func parse(_ text: String, file: String? = nil) throws(LessonsError) -> MarkdownDocument {
        let scanned = PipeTableScanner.scan(text)
        var blocks = try CommonMarkConverter.blocks(from: scanned.text)
        if !scanned.tables.isEmpty {
            var tables: [MarkdownTable] = []
            for raw in scanned.tables { tables.append(try table(from: raw)) }
            blocks = blocks.map { insertTables(tables, into: $0) }
        }
        return MarkdownDocument(blocks: blocks)
    }

    private static func table(from raw: PipeTableScanner.RawTable) throws(LessonsError) -> MarkdownTable {
        func cell(_ text: String) throws(LessonsError) -> MarkdownTable.Cell {
            guard !text.isEmpty else { return [] }
            // A cell that cmark would read as a block (`1. x`, `# x`) stays the literal text the author typed.
            return try CommonMarkConverter.inlines(from: text) ?? [.text(text)]
        }
        var header: [MarkdownTable.Cell] = []
        for text in raw.header { header.append(try cell(text)) }
        var rows: [[MarkdownTable.Cell]] = []
        for rawRow in raw.rows {
            var row: [MarkdownTable.Cell] = []
            for text in rawRow { row.append(try cell(text)) }
            rows.append(row)
        }
        return MarkdownTable(alignments: raw.alignments, header: header, rows: rows)
    }

    // Placeholders are only ever written at the top level, so only top-level blocks need looking at.
    private static func insertTables(_ tables: [MarkdownTable], into block: MarkdownBlock) -> MarkdownBlock {
        guard case .htmlBlock(let html) = block.kind, let index = PipeTableScanner.placeholderIndex(in: html),
              tables.indices.contains(index) else { return block }
        return MarkdownBlock(.table(tables[index]), line: block.line)
    }
}
