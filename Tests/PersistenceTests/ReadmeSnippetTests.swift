import Foundation
import XCTest

/// The README's "Persistence in one screen" is the first code a reader copies: it must compile against the library
/// as it is, in Swift 6 mode.
final class ReadmeSnippetTests: PersistenceTestCase {
    func testThePersistenceInOneScreenExampleCompiles() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardizedFileURL
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "## Persistence in one screen"), "the README has no such section")
        let rest = text[section.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "```swift\n"), "the section has no Swift block")
        let close = try XCTUnwrap(rest[open.upperBound...].range(of: "\n```"), "the Swift block is not closed")
        let code = String(rest[open.upperBound..<close.lowerBound])
        XCTAssertTrue(code.contains("import Persistence"))
        let result = try typecheck(code + "\n")
        XCTAssertEqual(result.status, 0, "the README's example does not compile:\n\(result.output)")
    }
}
