import Foundation
import XCTest
@testable import LessonsKit

/// The labs: the catalog, the report and its table, and the lab program run for real at a small size.
final class LabTests: XCTestCase {
    private let sample = #"{"cores":2,"lab":"search","measurements":[{"name":"count","note":"2411 cards match","seconds":0.4123},{"name":"fetch","note":"2411 cards match","seconds":16.31}],"peakMemoryMB":212.4,"rows":1600000}"#

    /// The debug build of the lab program, next to this test bundle (scripts/check builds it with the tests).
    private var debugLabProgram: URL {
        LessonsCLITests.binary.deletingLastPathComponent().appendingPathComponent(LabRunner.product)
    }

    func testAnUnknownLabNamesTheLabsThereAre() {
        XCTAssertThrowsError(try LabCatalog.lab(named: "serch")) { error in
            XCTAssertEqual((error as? LessonsError)?.kind, .unknownChoice)
            XCTAssertEqual("\(error)", "there is no lab called 'serch'. The labs: search, delete, import, faults.")
        }
        XCTAssertEqual(try LabCatalog.lab(named: "delete").defaultRows, 10_000)
    }

    func testAReportLineDecodesAndOtherLinesDoNot() throws {
        let report = try XCTUnwrap(LabReport.decode(sample))
        XCTAssertEqual(report.rows, 1_600_000)
        XCTAssertEqual(report.measurements.map(\.name), ["count", "fetch"])
        XCTAssertNil(LabReport.decode("progress\tfilling\t1\t2"))
        XCTAssertNil(LabReport.decode("{ not json"))
        XCTAssertNil(LabReport.decode(#"{"lab":"search"}"#), "a report missing its measurements is not a report")
    }

    func testTheTablePutsTheDocumentsFigureBesideTheWayItMeasured() throws {
        let report = try XCTUnwrap(LabReport.decode(sample))
        let text = report.render(try LabCatalog.lab(named: "search"), colors: false, width: 60)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines.contains("way    here    document  outcome"), text)
        XCTAssertTrue(lines.contains("count  0.41 s  —         2411 cards match"), text)
        XCTAssertTrue(lines.contains("fetch  16.3 s  4.2 s     2411 cards match"), text)
        XCTAssertTrue(text.replacingOccurrences(of: "\n", with: " ")
            .contains("1,600,000 cards · release build · 2 cores · peak memory 212 MB"), text)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 60 || $0.hasPrefix("fetch") || $0.hasPrefix("count") },
                      "prose is wrapped to the width:\n\(text)")
        XCTAssertFalse(text.contains("\u{1B}["), "no colour when colours are off")
    }

    func testDurationsReadAsAPersonWritesThem() {
        XCTAssertEqual(LabReport.duration(0.004), "0.00 s")
        XCTAssertEqual(LabReport.duration(0.42), "0.42 s")
        XCTAssertEqual(LabReport.duration(16.26), "16.3 s")
        XCTAssertEqual(LabReport.duration(123.4), "2 min 03 s")
        XCTAssertEqual(LabReport.grouped(999), "999")
        XCTAssertEqual(LabReport.grouped(10_000), "10,000")
    }

    /// Each lab program run at a small size through the real runner: its progress reaches the callback, its
    /// report decodes, and every way it measures is one the catalog knows (or the document figures would never
    /// show).
    func testEveryLabRunsSmallAndReportsTheWaysTheCatalogNames() throws {
        let program = debugLabProgram
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            XCTFail("\(program.path) is missing: build it with `swift build --build-tests` before `swift test`")
            return
        }
        let workspace = Workspace(packageRoot: TestPaths.packageRoot)
        let runner = LabRunner(workspace: workspace, binary: program)
        let expected: [String: [String]] = [
            "search": ["count", "fetch", "fetch and read, as faults", "fetch and read, not as faults"],
            "delete": ["child context", "context saving to the store", "batch delete"],
            "import": ["merging every page", "no merging, one reset at the end",
                       "pinned to a query generation, then moved on"],
            "faults": ["objects as faults", "objects not as faults", "dictionaries of the one attribute"],
        ]
        for lab in LabCatalog.all {
            var progressed = false
            let result = try runner.run(lab, rows: 300) { _, done, total in if total > 0 && done > 0 { progressed = true } }
            XCTAssertTrue(progressed, "\(lab.name) reports progress while it fills its data")
            XCTAssertEqual(result.report.lab, lab.name)
            XCTAssertEqual(result.report.rows, 300)
            XCTAssertEqual(result.report.measurements.map(\.name), expected[lab.name])
            XCTAssertTrue(Set(lab.documentFigures.keys).isSubset(of: Set(result.report.measurements.map(\.name))),
                          "\(lab.name): every document figure sits beside a way the program measures")
            XCTAssertTrue(result.report.measurements.allSatisfy { $0.seconds >= 0 && !$0.note.isEmpty })
        }
        let delete = try runner.run(try LabCatalog.lab(named: "delete"), rows: 50) { _, _, _ in }
        XCTAssertTrue(delete.report.measurements.allSatisfy { $0.note == "0 decks and 0 cards left" },
                      "each way really deletes everything: \(delete.report.measurements.map(\.note))")
    }

    func testAFailingLabSaysWhatWentWrong() throws {
        let workspace = Workspace(packageRoot: TestPaths.packageRoot)
        let runner = LabRunner(workspace: workspace, binary: URL(fileURLWithPath: "/bin/false"))
        XCTAssertThrowsError(try runner.run(try LabCatalog.lab(named: "faults"), rows: 10) { _, _, _ in }) { error in
            XCTAssertTrue("\(error)".hasPrefix("the lab 'faults' failed (exit status 1)"), "\(error)")
        }
    }
}
