/// How much of one kata's answer its lesson already shows: the significant lines of the reference solution's code
/// for the kata, each with the place in the lesson's text or example that shows it, if any (see
/// ``TransferMeasure``).
public struct KataTransfer: Equatable, Sendable {
    /// One significant line of the solution.
    public struct Line: Equatable, Sendable {
        /// Its line in the solution file.
        public var line: Int
        /// The code as written (its first line, trimmed, when it spans several).
        public var code: String
        /// The code normalised: names the learner chooses and literals replaced by `_`, one space between tokens.
        public var normalized: String
        /// Where the lesson shows the same normalised code (`Sources/Examples/…/main.swift:73`); nil where it does
        /// not.
        public var shownAt: String?

        public init(line: Int, code: String, normalized: String, shownAt: String?) {
            self.line = line
            self.code = code
            self.normalized = normalized
            self.shownAt = shownAt
        }
    }

    public var lesson: Int
    /// The kata's number in its suite, from 1.
    public var number: Int
    /// The test method, e.g. `test06_catalogImportUpdatesDecksInPlace`.
    public var kata: String
    /// The solution file the kata exercises, relative to the package root.
    public var file: String
    /// The functions or properties the kata names (`importCatalog(_:)`).
    public var symbols: [String]
    /// Those the solution file does not declare: the kata names its work wrongly, and nothing of it is measured.
    public var missingSymbols: [String]
    /// The significant lines that are measured.
    public var lines: [Line]
    /// Significant lines that many other lessons show too — the API's everyday vocabulary — left out of the share
    /// (see ``TransferMeasure``).
    public var commonLines: [Line]

    public init(lesson: Int, number: Int, kata: String, file: String, symbols: [String], missingSymbols: [String] = [],
                lines: [Line], commonLines: [Line] = []) {
        self.lesson = lesson
        self.number = number
        self.kata = kata
        self.file = file
        self.symbols = symbols
        self.missingSymbols = missingSymbols
        self.lines = lines
        self.commonLines = commonLines
    }

    /// The lines the lesson shows.
    public var shownLines: [Line] { lines.filter { $0.shownAt != nil } }

    /// The share of the solution's lines that the lesson shows, from 0 to 1 (0 for a kata with no lines).
    public var share: Double {
        lines.isEmpty ? 0 : Double(shownLines.count) / Double(lines.count)
    }

    /// ``share`` in whole percent.
    public var percent: Int { Int((share * 100).rounded()) }

    /// Whether the lesson shows most of the answer: at least ``TransferMeasure/threshold`` of a solution of at least
    /// ``TransferMeasure/minimumLines`` lines.
    public var isFlagged: Bool {
        lines.count >= TransferMeasure.minimumLines && share >= TransferMeasure.threshold
    }

    /// `kata 6 (importCatalog(_:)): 7 of its 10 solution lines (70%) are in the lesson's text or example`
    public var flagDescription: String {
        "kata \(number) (\(symbols.joined(separator: ", "))): \(shownLines.count) of its \(lines.count) solution "
            + "lines (\(percent)%) are in the lesson's text or example"
    }
}
