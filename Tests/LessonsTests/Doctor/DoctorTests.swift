import XCTest
@testable import LessonsKit

final class DoctorTests: XCTestCase {
    private func doctor(_ answers: [String: String], apt: Bool = true, root: Bool = false) -> Doctor {
        Doctor(probe: Doctor.Probe(firstLine: { answers[$0.joined(separator: " ")] },
                                   hasAptGet: apt, hasBrew: !apt, isRoot: root))
    }

    private let healthy = [
        "swift --version": "Swift version 6.3.1 (swift-6.3.1-RELEASE)", "pkg-config --version": "1.8.1",
        "pkg-config --modversion sqlite3": "3.40.1", "pkg-config --modversion libcmark": "0.30.2",
        "git --version": "git version 2.39.5",
        "chromium --version": "Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)",
    ]

    func testAllPresent() {
        let (text, ok) = doctor(healthy).report(colors: false)
        XCTAssertTrue(ok)
        XCTAssertTrue(text.contains("  ✓ Swift       6.3.1\n"), text)
        XCTAssertTrue(text.contains("  ✓ cmark       0.30.2 (linked: \(MarkdownParser.cmarkVersion))\n"), text)
        XCTAssertTrue(text.hasSuffix("Everything the workbook needs is here.\n"), text)
        XCTAssertTrue(text.contains("  ✓ Chromium    156.0.8078.79\n"), text)
    }

    func testTheRealMachineShowsVersionsNotComplaints() {
        // Debian's chromium launcher writes a shell error to standard error before the version; only standard
        // output counts.
        for check in Doctor().checks() where check.found != nil {
            XCTAssertFalse(check.found!.contains("unexpected operator"), check.found!)
            XCTAssertFalse(check.found!.hasPrefix("/"), "\(check.name): \(check.found!)")
        }
    }

    func testMissingLibrariesGetTheInstallCommand() {
        var answers = healthy
        answers["pkg-config --modversion libcmark"] = nil
        answers["pkg-config --modversion sqlite3"] = nil
        answers["chromium --version"] = nil
        let (text, ok) = doctor(answers).report(colors: false)
        XCTAssertFalse(ok)
        XCTAssertTrue(text.contains("  ✗ cmark       not found — needed: renders the lessons\n"), text)
        XCTAssertTrue(text.contains("Missing: SQLite, cmark.\nInstall with: sudo apt-get install -y libsqlite3-dev libcmark-dev\n"), text)
        XCTAssertTrue(text.contains("Optional extras: sudo apt-get install -y chromium\n"), text)
        XCTAssertEqual(doctor(answers, apt: false).installCommand(for: doctor(answers).checks().filter { !$0.isOK }),
                       "brew install sqlite cmark")
    }

    func testOldSwiftIsAProblem() {
        var answers = healthy
        answers["swift --version"] = "Swift version 5.10 (swift-5.10-RELEASE)"
        let (text, ok) = doctor(answers, root: true).report(colors: false)
        XCTAssertFalse(ok)
        XCTAssertTrue(text.contains("Swift 5.10 is too old: the package needs 6.1 or later"), text)
    }
}
