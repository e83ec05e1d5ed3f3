import Foundation
import XCTest
@testable import LessonsKit

/// Paths of the package and the test fixtures, found from this file's location (fixtures are not built).
enum TestPaths {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsFolder.appendingPathComponent("Fixtures")
    static let fixtureLessons = fixtures.appendingPathComponent("lessons")
    static let golden = testsFolder.appendingPathComponent("Golden")
    static let everyConstruct = fixtureLessons.appendingPathComponent("01-every-construct/lesson.en.md")

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }
}

/// A fresh temporary folder per test, removed afterwards.
class TemporaryFolderTestCase: XCTestCase {
    private(set) var temporary: URL!

    override func setUpWithError() throws {
        temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("lessons-tests-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    /// The fixture catalog (three lessons) with its progress file in the temporary folder.
    func fixtureCatalog() throws -> Catalog {
        let workspace = Workspace(packageRoot: TestPaths.packageRoot, lessonsDirectory: TestPaths.fixtureLessons,
                                  progressFile: temporary.appendingPathComponent("progress.json"))
        return try Catalog.load(workspace)
    }

    func write(_ text: String, to relativePath: String) throws -> URL {
        let url = temporary.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }
}

/// Compares `actual` with `Golden/<name>`. With `UPDATE_GOLDENS=1` in the environment it rewrites the file
/// instead (review the diff before committing).
func assertMatchesGolden(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
    let url = TestPaths.golden.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
        try? FileManager.default.createDirectory(at: TestPaths.golden, withIntermediateDirectories: true)
        try? Data(actual.utf8).write(to: url)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        XCTFail("golden file Golden/\(name) is missing; create it with UPDATE_GOLDENS=1", file: file, line: line)
        return
    }
    guard expected != actual else { return }
    let expectedLines = expected.components(separatedBy: "\n"), actualLines = actual.components(separatedBy: "\n")
    let index = Array(zip(expectedLines, actualLines)).firstIndex { $0 != $1 } ?? min(expectedLines.count, actualLines.count)
    let want = index < expectedLines.count ? expectedLines[index] : "<end>"
    let got = index < actualLines.count ? actualLines[index] : "<end>"
    XCTFail("Golden/\(name) differs at line \(index + 1):\n  expected: \(want.debugDescription)\n  actual:   "
        + "\(got.debugDescription)\n(rerun with UPDATE_GOLDENS=1 to accept)", file: file, line: line)
}
