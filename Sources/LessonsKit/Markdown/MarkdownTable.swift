/// A pipe table: a header row, an alignment per column and body rows of inline cells.
public struct MarkdownTable: Equatable, Sendable {
    public enum Alignment: Equatable, Sendable {
        case none, left, center, right
    }

    public typealias Cell = [MarkdownInline]

    public var alignments: [Alignment]
    public var header: [Cell]
    /// Every row has exactly `alignments.count` cells (short rows are padded, long ones cut, as GFM does).
    public var rows: [[Cell]]

    public init(alignments: [Alignment], header: [Cell], rows: [[Cell]]) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
    }
}
