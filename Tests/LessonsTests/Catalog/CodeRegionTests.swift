import XCTest
@testable import LessonsKit

final class CodeRegionTests: XCTestCase {
    private let source = """
        struct Store {
            // region: save
            func save() {
                // region: inner
                try context.save()
                // endregion: inner
            }
            // endregion: save
            # region: shell
            echo hi
            # endregion: shell
            // region: open
        }
        """

    func testExtractsDedentedWithoutOtherMarkers() {
        XCTAssertEqual(try CodeRegion.extract("save", from: source).get(), "func save() {\n    try context.save()\n}")
        XCTAssertEqual(try CodeRegion.extract("inner", from: source).get(), "try context.save()")
        XCTAssertEqual(try CodeRegion.extract("shell", from: source).get(), "echo hi")
    }

    func testProblemsNameWhatIsWrong() {
        XCTAssertEqual(CodeRegion.extract("load", from: source),
                       .failure(.missing(name: "load", available: ["save", "inner", "shell", "open"])))
        XCTAssertEqual(CodeRegion.extract("open", from: source), .failure(.unclosed(name: "open", line: 12)))
        XCTAssertEqual(CodeRegion.extract("a", from: "// region: a\n// endregion: a\n// region: a\n"),
                       .failure(.duplicate(name: "a", line: 3)))
        XCTAssertEqual(CodeRegion.extract("a", from: "// region: a\n\n// endregion: a\n"), .failure(.empty(name: "a")))
        XCTAssertEqual(CodeRegion.Problem.missing(name: "x", available: []).description,
                       "no region \"x\" (the file marks no regions); mark one with `// region: x` … `// endregion: x`")
    }

    func testMarkersCanBeRemovedFromAWholeFile() {
        let source = "struct A {\n    // region: body\n    let x = 1\n    // endregion: body\n    # region: shell\n}\n"
        XCTAssertEqual(CodeRegion.removingMarkers(from: source), "struct A {\n    let x = 1\n}\n")
    }

    func testIncludeInfoString() {
        XCTAssertEqual(CodeInclude(info: "swift include=Sources/A.swift#save")?.reference, "Sources/A.swift#save")
        XCTAssertEqual(CodeInclude(info: "swift include=Sources/A.swift")?.region, nil)
        XCTAssertNil(CodeInclude(info: "swift"))
    }
}
