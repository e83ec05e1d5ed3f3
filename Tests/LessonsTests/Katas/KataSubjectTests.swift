import XCTest
@testable import LessonsKit

final class KataSubjectTests: XCTestCase {
    func testEachSubjectHasItsTraitAndBuildFolder() {
        let root = URL(fileURLWithPath: "/work/book")
        let plain = Workspace(packageRoot: root)
        XCTAssertEqual(KataSubject.starters.buildOptions(in: plain), [])
        XCTAssertEqual(KataSubject.solutions.buildOptions(in: plain),
                       ["--scratch-path", "/work/book/.build/lessons/solutions", "--traits", "Solutions"])
        let scratch = Workspace(packageRoot: root, scratchPath: root.appendingPathComponent(".build-katas"))
        XCTAssertEqual(KataSubject.starters.buildOptions(in: scratch), ["--scratch-path", "/work/book/.build-katas"])
        XCTAssertEqual(KataSubject.decoys.buildOptions(in: scratch),
                       ["--scratch-path", "/work/book/.build-katas/lessons/decoys", "--traits", "Decoys"])
    }

    func testTheBuildFolderIsFoundFromTheExecutable() {
        let root = URL(fileURLWithPath: "/work/book")
        func scratch(_ path: String) -> String? {
            Workspace.scratchPath(ofExecutable: URL(fileURLWithPath: path), packageRoot: root)?.path
        }
        XCTAssertEqual(scratch("/work/book/.build-katas/x86_64-unknown-linux-gnu/debug/lessons"), "/work/book/.build-katas")
        XCTAssertEqual(scratch("/work/book/.build/debug/lessons"), "/work/book/.build")
        XCTAssertNil(scratch("/usr/local/bin/lessons"), "an installed copy uses SwiftPM's default")
        XCTAssertNil(scratch("/work/book/tools/bin/lessons"), "only hidden build folders count")
        XCTAssertNil(scratch("/work/bookshelf/.build/debug/lessons"), "a sibling folder is not inside the package")
        XCTAssertNil(Workspace.scratchPath(ofExecutable: nil, packageRoot: root))
    }

    func testDecoyIdsAreReadFromTheCode() {
        let source = """
            if Decoy.isActive("create-without-save") { return book }
            let writer = Decoy.isActive("writes-on-main") ? main : background   // Decoy.isActive("in-a-comment")
            Decoy.isActive(name)
            """
        XCTAssertEqual(DecoyScanner.ids(in: source), ["create-without-save", "writes-on-main", "in-a-comment"])
    }
}
