import XCTest
@testable import LessonsKit

final class KataSubjectTests: XCTestCase {
    func testEachSubjectHasItsTestModuleInOneBuildFolder() {
        XCTAssertEqual(KataSubject.allCases.map(\.testModule), ["Katas", "KatasSolutions", "KatasDecoys"])
        XCTAssertEqual(KataSubject.solutions.selector(suite: "Kata01Testing"), "KatasSolutions.Kata01Testing")
        let root = URL(fileURLWithPath: "/work/book")
        let plain = Workspace(packageRoot: root)
        XCTAssertEqual(plain.buildOptions, [])
        XCTAssertEqual(plain.buildFolder.path, "/work/book/.build")
        let scratch = Workspace(packageRoot: root, scratchPath: root.appendingPathComponent(".build-katas"))
        XCTAssertEqual(scratch.buildOptions, ["--scratch-path", "/work/book/.build-katas"])
        XCTAssertEqual(scratch.buildFolder.path, "/work/book/.build-katas")
        XCTAssertEqual(KataRunner(workspace: plain, subject: .starters).buildEnvironment, [:])
        XCTAssertEqual(KataRunner(workspace: plain, subject: .decoys).buildEnvironment, ["LESSONS_KATA_SUBJECTS": "all"])
    }

    func testACompilerErrorIsBlamedOnTheSubjectWhoseCodeItIsIn() {
        XCTAssertEqual(KataSubject.owning("Sources/Decoys/05-saving-safely/ItemStore.swift:3:1: error: x"), .decoys)
        XCTAssertEqual(KataSubject.owning("Sources/Solutions/05-saving-safely/ItemStore.swift:3:1: error: x"), .solutions)
        XCTAssertEqual(KataSubject.owning("Sources/Workbook/05-saving-safely/ItemStore.swift:3:1: error: x"), .starters)
        XCTAssertNil(KataSubject.owning("Sources/Persistence/Context/ManagedObjectContext.swift:1:1: error: x"))
    }

    /// The two extra kata modules are the kata files themselves, through links, so they cannot drift apart.
    func testTheSolutionsAndDecoysKataFoldersAreLinksToTheKatas() throws {
        let tests = TestPaths.packageRoot.appendingPathComponent("Tests")
        for name in ["KatasSolutions", "KatasDecoys"] {
            let destination = try FileManager.default.destinationOfSymbolicLink(
                atPath: tests.appendingPathComponent(name).path)
            XCTAssertEqual(destination, "Katas", name)
        }
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
