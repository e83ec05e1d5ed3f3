/// The table `lessons transfer` prints: for each kata, how many significant lines its solution has and the share
/// of them its lesson's text or example shows (``TransferMeasure``), flagged at or above the threshold. Plain text
/// within 80 columns; colours only when asked for.
public struct TransferReport: Sendable {
    /// One lesson's measured katas.
    public struct Entry: Sendable {
        public var lesson: Lesson
        public var katas: [KataTransfer]

        public init(lesson: Lesson, katas: [KataTransfer]) {
            self.lesson = lesson
            self.katas = katas
        }
    }

    public var entries: [Entry]

    /// How many shown lines `--verbose` lists under a kata, the longest first.
    public static let shownLinesListed = 3
    static let width = 80
    static let nameWidth = 40

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The flagged katas of every entry.
    public var flagged: [KataTransfer] { entries.flatMap(\.katas).filter(\.isFlagged) }

    public func render(verbose: Bool = false, colors: Bool = false) -> String {
        func paint(_ text: String, _ style: TextStyle) -> String { StyledText(text, style).rendered(colors: colors) }
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - text.count))
            return right ? fill + text : text + fill
        }
        var lines = [paint(pad("lesson", 6) + "  " + pad("kata", Self.nameWidth + 3) + "  lines  shown",
                           TextStyle(bold: true))]
        for entry in entries {
            for (index, kata) in entry.katas.enumerated() {
                let lesson = index == 0 ? pad("\(entry.lesson.number)", 4, right: true) + "  " : String(repeating: " ", count: 6)
                let name = Self.shortName(kata)
                let cut = name.count > Self.nameWidth ? String(name.prefix(Self.nameWidth - 1)) + "…" : name
                var row = lesson + "  " + pad("\(kata.number)", 2, right: true) + " " + pad(cut, Self.nameWidth) + "  "
                    + pad("\(kata.lines.count)", 5, right: true) + "  " + pad("\(kata.percent)%", 5, right: true)
                if kata.isFlagged {
                    row += "  " + paint("flagged", TextStyle(bold: true, color: entry.lesson.transferReviewed ? .red : .yellow))
                }
                lines.append(row)
                for symbol in kata.missingSymbols {
                    let text = "\(symbol) in \(kata.file)"
                    lines.append(Self.fit("        " + paint("not found:", TextStyle(color: .red)) + " " + text,
                                          visible: 19 + text.count))
                }
                if verbose { lines += Self.details(of: kata, paint: paint) }
            }
        }
        let total = entries.reduce(0) { $0 + $1.katas.count }
        let reviewed = entries.filter(\.lesson.transferReviewed).map { "\($0.lesson.number)" }
        let threshold = Int((TransferMeasure.threshold * 100).rounded())
        let footer = ["", "Flagged: \(flagged.count) of \(total) katas, whose lesson shows \(threshold)% or more of a "
            + "solution of \(TransferMeasure.minimumLines) or more lines. A solution's lines that "
            + "\(TransferMeasure.commonLessons) or more other lessons show too are everyday vocabulary, left out.",
                      "Reviewed lessons, where a flagged kata fails `lessons verify`: "
            + (reviewed.isEmpty ? "none" : reviewed.joined(separator: ", ")) + "."]
        return (lines + [TextWrapping.wrap(footer.joined(separator: "\n"), width: Self.width)]).joined(separator: "\n")
            + "\n"
    }

    /// `catalogImportUpdatesDecksInPlace` for `test06_catalogImportUpdatesDecksInPlace`.
    static func shortName(_ kata: KataTransfer) -> String {
        guard kata.kata.hasPrefix("test"), let underscore = kata.kata.firstIndex(of: "_") else {
            return kata.kata.isEmpty ? kata.symbols.joined(separator: ", ") : kata.kata
        }
        return String(kata.kata[kata.kata.index(after: underscore)...])
    }

    /// The longest lines the lesson shows, each with where it is in the solution and in the lesson.
    private static func details(of kata: KataTransfer, paint: (String, TextStyle) -> String) -> [String] {
        let file = kata.file.split(separator: "/").last.map(String.init) ?? kata.file
        let shown = kata.shownLines.sorted { $0.normalized.count > $1.normalized.count }.prefix(shownLinesListed)
        var lines: [String] = []
        for line in shown {
            let head = "        \(file):\(line.line)  "
            lines.append(fit(head + line.code, visible: head.count + line.code.count))
            let place = line.shownAt ?? ""
            lines.append(fit("          " + paint("shown in", TextStyle(dim: true)) + " " + place,
                             visible: 19 + place.count))
        }
        if !kata.commonLines.isEmpty {
            let text = "and \(kata.commonLines.count) line\(kata.commonLines.count == 1 ? "" : "s") of everyday vocabulary, not counted"
            lines.append(fit("        " + paint(text, TextStyle(dim: true)), visible: 8 + text.count))
        }
        return lines
    }

    /// `text` cut to the report's width with `…` (`visible` is its length without colour codes).
    private static func fit(_ text: String, visible: Int) -> String {
        guard visible > width else { return text }
        return String(text.prefix(text.count - (visible - width) - 1)) + "…"
    }
}
