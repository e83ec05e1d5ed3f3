import Foundation
import XCTest
@testable import LessonsKit

/// The labs: the catalog, the report and its table, the progress display, and the lab program run for real at a
/// small size.
final class LabTests: TemporaryFolderTestCase {
    private let sample = #"{"build":"release","cores":2,"lab":"search","measurements":["#
        + #"{"name":"count","note":"2411 cards match","peakMemoryMB":180.4,"seconds":0.4123},"#
        + #"{"name":"fetch","note":"2411 cards match","peakMemoryMB":212.4,"seconds":16.31}],"#
        + #""peakMemoryMB":212.4,"rows":1600000}"#

    /// The debug build of the lab program, next to this test bundle (scripts/check builds it with the tests).
    private var debugLabProgram: URL {
        get throws {
            let program = LessonsCLITests.binary.deletingLastPathComponent().appendingPathComponent(LabRunner.product)
            guard FileManager.default.isExecutableFile(atPath: program.path) else {
                XCTFail("\(program.path) is missing: build it with `swift build --build-tests` before `swift test`")
                throw CocoaError(.fileNoSuchFile)
            }
            return program
        }
    }

    func testAnUnknownLabNamesTheLabsThereAre() {
        XCTAssertThrowsError(try LabCatalog.lab(named: "serch")) { error in
            XCTAssertEqual((error as? LessonsError)?.kind, .unknownChoice)
            XCTAssertEqual("\(error)", "there is no lab called 'serch'. The labs: search, delete, import, faults, history, fetched-results, migration.")
        }
        XCTAssertEqual(try LabCatalog.lab(named: "delete").defaultRows, 10_000)
    }

    func testAReportLineDecodesAndOtherLinesDoNot() throws {
        let report = try XCTUnwrap(LabReport.decode(sample))
        XCTAssertEqual(report.rows, 1_600_000)
        XCTAssertEqual(report.build, "release")
        XCTAssertEqual(report.measurements.map(\.name), ["count", "fetch"])
        XCTAssertEqual(report.measurements.map(\.peakMemoryMB), [180.4, 212.4])
        let noStepPeak = sample.replacingOccurrences(of: #""peakMemoryMB":180.4,"#, with: "")
        XCTAssertEqual(try XCTUnwrap(LabReport.decode(noStepPeak)).measurements.map(\.peakMemoryMB), [nil, 212.4],
                       "a system that cannot tell one step's peak leaves it out")
        XCTAssertNil(LabReport.decode("progress\tfilling\t1\t2"))
        XCTAssertNil(LabReport.decode("{ not json"))
        XCTAssertNil(LabReport.decode(#"{"lab":"search"}"#), "a report missing its measurements is not a report")
    }

    func testTheTablePutsTheDocumentsFigureBesideTheWayItMeasured() throws {
        let report = try XCTUnwrap(LabReport.decode(sample))
        let search = try LabCatalog.lab(named: "search")
        let (wide, wideLines) = try searchTable(sample)
        XCTAssertTrue(wideLines.contains("way    here    document  memory  outcome"), wide)
        XCTAssertTrue(wideLines.contains("count  0.41 s  —         180 MB  2411 cards match"), wide)
        XCTAssertTrue(wideLines.contains("fetch  16.3 s  4.2 s     212 MB  2411 cards match"), wide)
        XCTAssertTrue(wide.replacingOccurrences(of: "\n", with: " ")
            .contains("1,600,000 cards · release build · 2 cores · peak memory 212 MB"), wide)
        XCTAssertFalse(wide.contains("\u{1B}["), "no colour when colours are off")

        let narrow = report.render(search, colors: false, width: 40)
        let narrowLines = narrow.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(narrow.contains("way    here    document  memory\ncount  0.41 s  —         180 MB\n"
            + "  2411 cards match\nfetch  16.3 s  4.2 s     212 MB\n  2411 cards match\n"), narrow)
        XCTAssertTrue(narrowLines.allSatisfy { $0.count <= 40 }, "outcomes move under their way:\n\(narrow)")

        let coloured = report.render(search, colors: true, width: 100)
        XCTAssertTrue(coloured.contains("\u{1B}[0;1mway "), "the header is bold on a terminal:\n\(coloured)")
    }

    /// A lab that counted its statements gets a column for them, with "—" for a way that ran elsewhere, and a
    /// line saying where the figures come from.
    func testTheStatementsEachWayRanStandBesideItsTime() throws {
        let counted = sample.replacingOccurrences(of: #""peakMemoryMB":180.4,"#,
                                                  with: #""peakMemoryMB":180.4,"sqlStatements":1,"#)
        XCTAssertEqual(try XCTUnwrap(LabReport.decode(counted)).measurements.map(\.sqlStatements), [1, nil])
        let (table, lines) = try searchTable(counted)
        XCTAssertTrue(lines.contains("way    here    document  memory  SQL  outcome"), table)
        XCTAssertTrue(lines.contains("count  0.41 s  —         180 MB  1    2411 cards match"), table)
        XCTAssertTrue(lines.contains("fetch  16.3 s  4.2 s     212 MB  —    2411 cards match"), table)
        XCTAssertTrue(table.replacingOccurrences(of: "\n", with: " ")
            .contains("SQL: the statements each way ran, counted from Core Data's SQL debug log"), table)
    }

    /// The search lab's table for the report `json`, 100 columns wide, and its lines.
    private func searchTable(_ json: String) throws -> (text: String, lines: [String]) {
        let text = try XCTUnwrap(LabReport.decode(json)).render(try LabCatalog.lab(named: "search"), colors: false,
                                                                width: 100)
        return (text, text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    func testDurationsReadAsAPersonWritesThem() {
        XCTAssertEqual(LabReport.duration(0.004), "0.00 s")
        XCTAssertEqual(LabReport.duration(0.42), "0.42 s")
        XCTAssertEqual(LabReport.duration(16.26), "16.3 s")
        XCTAssertEqual(LabReport.duration(123.4), "2 min 03 s")
        XCTAssertEqual(LabReport.grouped(999), "999")
        XCTAssertEqual(LabReport.grouped(10_000), "10,000")
    }

    func testOffATerminalProgressIsOneLinePerStep() {
        var lines: [String] = []
        let progress = LabProgress(terminal: false) { lines.append($0) }
        progress.update("building the labs", done: 0, total: nil)
        progress.update("building the labs", done: 3, total: 40)
        progress.update("filling 300 cards", done: 100, total: 300)
        progress.update("filling 300 cards", done: 300, total: 300)
        progress.update("count", done: 0, total: 0)
        progress.finish()
        XCTAssertEqual(lines, ["building the labs…", "filling 300 cards…", "count…"])
    }

    func testAFailedBuildShowsTheCompilersErrorsWithoutItsStepCounter() {
        let output = ["Building for production...", "[1/5] Write sources",
                      "[3/5] Compiling persistence_labs main.swift",
                      "/p/Sources/Labs/main.swift:1:14: error: cannot convert value of type 'String' to 'Int'",
                      "1 | let x: Int = \"no\"", "  |              `- error: cannot convert value", "[4/5] Emitting"]
        XCTAssertEqual(LabRunner.compilerMessages(output), Array(output[3...5]))
        let noError = (1...40).map { "line \($0)" }
        XCTAssertEqual(LabRunner.compilerMessages(noError), Array(noError.suffix(30)),
                       "without an error line, the end of the output is what tells")
    }

    /// Each lab program run at a small size through the real runner: its progress reaches the callback, its
    /// report decodes, every way it measures is one the catalog knows (or the document figures would never show),
    /// and what each way found agrees with the others.
    func testEveryLabRunsSmallAndReportsTheWaysTheCatalogNames() throws {
        let runner = LabRunner(workspace: Workspace(packageRoot: TestPaths.packageRoot), binary: try debugLabProgram)
        let expected: [String: [String]] = [
            "search": ["count", "fetch", "fetch and read, as faults", "fetch and read, not as faults"],
            "delete": ["child context", "context saving to the store", "batch delete"],
            "import": ["merging every page", "no merging, one reset at the end",
                       "pinned to a query generation, then moved on"],
            "faults": ["objects as faults", "objects not as faults", "dictionaries of the one attribute"],
            "history": ["batch insert, history off", "hand merge of the returned IDs", "batch insert, history on",
                        "merge through history"],
            "fetched-results": ["fetch alone, for comparison", "performFetch", "merge of 1,000 changed objects, no controller",
                                "merge of 1,000 changed objects, followed", "performFetch again, for comparison"],
            "migration": ["lightweight migration on load", "opening the migrated store",
                          "ALTER TABLE by hand in the sqlite3 shell"],
        ]
        var notes: [String: [String]] = [:]
        for lab in LabCatalog.all {
            var progressed = false
            let result = try runner.run(lab, rows: 300) { _, done, total in
                if total > 0 && done > 0 { progressed = true }
            }
            XCTAssertTrue(progressed, "\(lab.name) reports progress while it fills its data")
            XCTAssertEqual(result.report.lab, lab.name)
            XCTAssertEqual(result.report.rows, 300)
            XCTAssertEqual(result.report.build, "debug")
            XCTAssertEqual(result.report.measurements.map(\.name), expected[lab.name])
            XCTAssertTrue(Set(lab.documentFigures.keys).isSubset(of: Set(result.report.measurements.map(\.name))),
                          "\(lab.name): every document figure sits beside a way the program measures")
            XCTAssertTrue(result.report.measurements.allSatisfy { $0.seconds >= 0 && !$0.note.isEmpty })
            #if os(Linux)
            XCTAssertTrue(result.report.measurements.allSatisfy { ($0.peakMemoryMB ?? 0) > 0 },
                          "\(lab.name): Linux gives each way its own peak: \(result.json)")
            #endif
            XCTAssertGreaterThanOrEqual(result.report.peakMemoryMB,
                                        result.report.measurements.compactMap(\.peakMemoryMB).max() ?? 0,
                                        "the run's peak is at least each way's")
            notes[lab.name] = result.report.measurements.map(\.note)
        }
        XCTAssertEqual(Set(notes["search"] ?? []).count, 1, "every way finds the same: \(notes["search"] ?? [])")
        XCTAssertEqual(Set(notes["faults"] ?? []).count, 1, "every way averages the same: \(notes["faults"] ?? [])")
        XCTAssertEqual(notes["delete"], Array(repeating: "0 decks and 0 cards left", count: 3))
        XCTAssertEqual(notes["migration"]?.prefix(2), ["300 moods after", "300 moods"])
        // The third way needs the sqlite3 shell, a package of its own; without it the way says so.
        XCTAssertTrue(["sqlite3's own timer: ", "not measured: no sqlite3 shell"].contains { notes["migration"]?.last?.hasPrefix($0) == true },
                      "\(notes["migration"] ?? [])")
        // 1,000 items on screen before the import of 300: whatever the way, the list ends on the newest item. The
        // view context holds what the list holds (a context keeps an unchanged object only while something does):
        // merged items nobody keeps are gone; only the pinned way, whose refresh reports the old list's items in the
        // next did-change notification, still holds them beside the new list.
        XCTAssertEqual(notes["history"], [
            "300 rows inserted, their IDs returned",
            "the view context holds 1000 objects, its list starts at item 1299",
            "300 rows inserted, each change recorded in the same transaction",
            "the view context holds 1000 objects, its list starts at item 1299",
        ])
        XCTAssertEqual(notes["import"], [
            "the view context merged 1 page, holds 1000 objects, its list starts at item 1299",
            "the view context merged 0 pages, holds 1000 objects, its list starts at item 1299",
            "the view context merged 0 pages, holds 1300 objects, its list starts at item 1299",
        ])
    }

    func testAFailingLabSaysWhatWentWrong() throws {
        let workspace = Workspace(packageRoot: TestPaths.packageRoot)
        let runner = LabRunner(workspace: workspace, binary: URL(fileURLWithPath: "/bin/false"))
        XCTAssertThrowsError(try runner.run(try LabCatalog.lab(named: "faults"), rows: 10) { _, _, _ in }) { error in
            XCTAssertTrue("\(error)".hasPrefix("the lab 'faults' failed (exit status 1)"), "\(error)")
        }
    }

    /// Ctrl-C while a lab fills its store: the store's folder goes, and the program ends by the signal.
    func testAnInterruptedLabRemovesItsStore() throws {
        let process = Process()
        process.executableURL = try debugLabProgram
        process.arguments = ["search", "--rows", "5000000"]
        process.environment = ["TMPDIR": temporary.path, "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The first progress line comes once the store exists and the fill has begun.
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        XCTAssertTrue(String(decoding: first, as: UTF8.self).hasPrefix("progress\tfilling 5000000 cards\t"))
        let folders = { try FileManager.default.contentsOfDirectory(atPath: self.temporary.path)
            .filter { $0.hasPrefix("persistence-lab-") } }
        XCTAssertEqual(try folders().count, 1, "the lab's store is in the temporary folder it was given")
        process.interrupt()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        XCTAssertEqual(try folders(), [], "the interrupted lab leaves no store behind")
    }
}
