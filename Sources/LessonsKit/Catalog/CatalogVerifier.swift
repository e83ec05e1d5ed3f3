/// The part of `lessons verify` that reads files without building anything: the manifest, and for every lesson
/// whether it is planned, ready or incomplete (see ``LessonAudit``), with each problem and where it is.
public struct CatalogVerifier: Sendable {
    public var catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// One audit per lesson, in the manifest's order.
    public func audits() -> [LessonAudit] {
        let transfer = TransferMeasure(catalog: catalog)
        return catalog.lessons.map { LessonAudit($0, catalog: catalog, transfer: transfer) }
    }

    /// `transfer: 3 katas flagged`: the katas whose lesson shows most of the answer, reviewed lessons or not.
    public static func transferSummary(_ audits: [LessonAudit]) -> String {
        let count = audits.reduce(0) { $0 + $1.transferFlags.count }
        return "transfer: \(count) kata\(count == 1 ? "" : "s") flagged"
    }

    /// The report and whether no lesson is incomplete.
    public func report(_ audits: [LessonAudit], colors: Bool = false) -> (text: String, ok: Bool) {
        func paint(_ text: String, _ style: TextStyle) -> String { StyledText(text, style).rendered(colors: colors) }
        var lines = ["Manifest: \(catalog.workspace.displayPath(catalog.workspace.manifestFile)), "
            + "\(catalog.lessons.count) lessons — ok", "", paint("Lessons:", TextStyle(bold: true))]
        let slugWidth = audits.map(\.lesson.slug.count).max() ?? 0
        for audit in audits {
            let lesson = audit.lesson
            let label = (lesson.number < 10 ? " " : "") + "\(lesson.number) "
                + lesson.slug.padding(toLength: slugWidth, withPad: " ", startingAt: 0)
            switch audit.state {
            case .planned:
                lines.append("  " + paint("·", TextStyle(dim: true)) + " \(label)  planned: nothing written yet")
            case .ready:
                lines.append("  " + paint("✓", TextStyle(color: .green)) + " \(label)  " + Self.parts(of: audit))
            case .incomplete:
                lines.append("  " + paint("✗", TextStyle(bold: true, color: .red)) + " \(label)  incomplete:")
                lines += audit.problems.map { "      - " + $0 }
            }
            if !audit.lesson.transferReviewed {
                // In a reviewed lesson they are problems, listed above.
                lines += audit.transferFlags.map { "      " + paint("! flagged:", TextStyle(color: .yellow)) + " " + $0 }
            }
            lines += audit.notes.map { "      (\($0))" }
        }
        let count = { (state: LessonAudit.State) in audits.filter { $0.state == state }.count }
        lines.append("  \(count(.ready)) ready, \(count(.incomplete)) incomplete, \(count(.planned)) planned.")
        return (lines.joined(separator: "\n") + "\n", count(.incomplete) == 0)
    }

    /// `text en · example · 10 katas · 24 hints · 8 decoys`
    static func parts(of audit: LessonAudit) -> String {
        let lesson = audit.lesson
        return ["text " + audit.writtenLanguages.map(\.rawValue).joined(separator: ", "), "example",
                "\(audit.katas.count) katas", "\(lesson.katas.hints.values.reduce(0) { $0 + $1.count }) hints",
                "\(lesson.decoys?.cases.count ?? 0) decoys"].joined(separator: " · ")
    }
}
