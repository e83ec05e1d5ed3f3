import XCTest
@testable import LessonsKit

final class LessonsKitTests: XCTestCase {
    func testVersionIsSemantic() {
        XCTAssertEqual(LessonsKit.version.split(separator: ".").count, 3)
    }
}
