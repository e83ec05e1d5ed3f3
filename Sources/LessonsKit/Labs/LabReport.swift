import Foundation

/// What a lab measured, as the lab program prints it (one JSON object) and `lessons lab --json` passes on.
public struct LabReport: Codable, Equatable, Sendable {
    /// One way of doing the lab's work: its time, the process's peak memory while it ran (absent where the
    /// system cannot tell one step's peak), the SQL statements it ran, counted from Core Data's SQL debug log
    /// (absent where the work ran in another process), and what it found or left.
    public struct Measurement: Codable, Equatable, Sendable {
        public let name: String
        public let seconds: Double
        public let peakMemoryMB: Double?
        public var sqlStatements: Int? = nil
        public let note: String
    }

    public let lab: String
    public let rows: Int
    /// How the lab program was built: "release" (as `lessons lab` builds it) or "debug".
    public let build: String
    public let cores: Int
    public let peakMemoryMB: Double
    public let measurements: [Measurement]

    /// The report in a line of the lab's output, or nil when the line is not one.
    public static func decode(_ line: String) -> LabReport? {
        guard line.hasPrefix("{") else { return nil }
        return try? JSONDecoder().decode(LabReport.self, from: Data(line.utf8))
    }

    /// The table for a person: each way, its time here, the document's figure, the peak memory while it ran,
    /// what it found; then the machine and what to conclude, wrapped to `width`. When the outcomes do not fit
    /// beside the figures, each goes on an indented line under its way.
    public func render(_ lab: Lab, colors: Bool, width: Int) -> String {
        // The statements column only when the lab counted them (a report from before it did has none).
        let countsSQL = measurements.contains { $0.sqlStatements != nil }
        let header = ["way", "here", "document", "memory"] + (countsSQL ? ["SQL"] : [])
        let rows = measurements.map { measurement in
            [measurement.name, Self.duration(measurement.seconds), lab.documentFigures[measurement.name] ?? "—",
             measurement.peakMemoryMB.map { "\(Int($0.rounded())) MB" } ?? "—"]
                + (countsSQL ? [measurement.sqlStatements.map(Self.grouped) ?? "—"] : [])
        }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        let wrapWidth = max(width, 40)
        let notesWidth = measurements.map(\.note.count).max() ?? 0
        let notesBeside = widths.reduce(0, +) + 2 * widths.count + max(notesWidth, "outcome".count) <= wrapWidth
        func line(_ cells: [String], style: TextStyle = TextStyle()) -> String {
            let padded = cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            return StyledText(padded.joined(separator: "  "), style).rendered(colors: colors)
        }
        let title = TextWrapping.wrap("Lab \(lab.name): \(lab.summary)", width: wrapWidth)
        var text = StyledText(title, TextStyle(bold: true)).rendered(colors: colors) + "\n"
        text += TextWrapping.wrap("Claim from \(lab.source).", width: wrapWidth) + "\n\n"
        if notesBeside {
            text += line(header + ["outcome"], style: TextStyle(bold: true)) + "\n"
            for (row, measurement) in zip(rows, measurements) { text += line(row + [measurement.note]) + "\n" }
        } else {
            text += line(header, style: TextStyle(bold: true)) + "\n"
            for (row, measurement) in zip(rows, measurements) {
                text += line(row) + "\n"
                let note = TextWrapping.wrap("  " + measurement.note, width: wrapWidth, hangingIndent: { _ in 2 })
                text += StyledText(note, TextStyle(dim: true)).rendered(colors: colors) + "\n"
            }
        }
        text += "\n"
        let machine = "\(Self.grouped(self.rows)) \(lab.rowsUnit) · \(build) build · \(cores) cores · "
            + "peak memory \(Int(peakMemoryMB.rounded())) MB"
            + (countsSQL
                ? " · SQL: the statements each way ran, counted from Core Data's SQL debug log "
                    + "(-com.apple.CoreData.SQLDebug 1), on while it was timed" : "")
        text += StyledText(TextWrapping.wrap(machine, width: wrapWidth), TextStyle(dim: true)).rendered(colors: colors)
            + "\n\n"
        text += TextWrapping.wrap(lab.conclusion, width: wrapWidth) + "\n"
        return text
    }

    /// `0.42 s`, `16.3 s`, `2 min 03 s`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return "\(whole / 60) min " + String(format: "%02d s", whole % 60)
    }

    /// `1,600,000`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
