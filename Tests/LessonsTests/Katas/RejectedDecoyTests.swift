import Foundation
import XCTest
@testable import LessonsKit

/// Decoys Swift 6 must refuse to compile: what counts as rejected, what the compiler is asked, and that the
/// compiler asked that way does find a data race (which plain type checking does not).
final class RejectedDecoyTests: XCTestCase {
    private let decoy = Lesson.Decoys.Case(id: "object-into-task", mistake: "sends a managed object into a Task",
                                           rejectedWith: "SendingRisksDataRace")

    private func lesson() -> Lesson {
        Lesson(number: 17, slug: "concurrency", title: LocalizedText([.en: "C"]), summary: LocalizedText([.en: "S"]),
               languages: [.en], sources: [],
               katas: Lesson.Katas(suite: "Kata17Concurrency", file: "Tests/Katas/Kata17Concurrency.swift"),
               starter: ["Sources/Workbook/17-concurrency"], solution: ["Sources/Solutions/17-concurrency"],
               example: Lesson.Example(product: "example17-concurrency", path: "Sources/Examples/17-concurrency"),
               decoys: Lesson.Decoys(path: "Sources/Decoys/17-concurrency", cases: [decoy]))
    }

    private let folder = "Sources/Decoys/Rejected/17-concurrency/object-into-task"

    func testCaughtOnlyByTheNamedErrorInTheDecoysOwnFile() {
        let rejected = """
            \(folder)/Importer.swift:12:9: error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]
             |         `- error: sending value of non-Sendable type '() async -> ()' risks causing data races [#SendingRisksDataRace]
            """
        let caught = KataVerifier.judgeRejected(decoy, of: lesson(), status: 1, output: rejected)
        XCTAssertNil(caught.problem)
        XCTAssertEqual(caught.rejectedBy, "Importer.swift:12:9: error: sending value of non-Sendable type "
            + "'() async -> ()' risks causing data races [#SendingRisksDataRace]")
        XCTAssertEqual(caught.caughtBy, [], "a rejected decoy reaches no kata, so it covers none")

        let elsewhere = rejected.replacingOccurrences(of: folder, with: "Sources/Solutions/17-concurrency")
        XCTAssertEqual(KataVerifier.judgeRejected(decoy, of: lesson(), status: 1, output: elsewhere).problem,
                       "rejected, but not for \"SendingRisksDataRace\": Sources/Solutions/17-concurrency/Importer"
                       + ".swift:12:9: error: sending value of non-Sendable type '() async -> ()' risks causing data "
                       + "races [#SendingRisksDataRace]", "an error outside the decoy's files is not the decoy's")
        let other = "\(folder)/Importer.swift:3:1: error: cannot find 'Imprter' in scope"
        XCTAssertEqual(KataVerifier.judgeRejected(decoy, of: lesson(), status: 1, output: other).problem,
                       "rejected, but not for \"SendingRisksDataRace\": \(other)")
        XCTAssertEqual(KataVerifier.judgeRejected(decoy, of: lesson(), status: 0, output: "").problem,
                       "compiles: Swift 6 accepts this wrong answer, so a kata must catch it (drop \"rejectedWith\")")
    }

    /// The invocation compiles the solution's files with the decoy's in place of those of the same names.
    func testTheSolutionIsCompiledWithTheDecoysFilesInPlace() throws {
        let root = try temporaryPackage(files: [
            "Sources/Solutions/17-concurrency/Importer.swift": "func importAll() {}\n",
            "Sources/Solutions/17-concurrency/Model/Row.swift": "struct Row {}\n",
            "\(folder)/Importer.swift": "func importAll() {}\n",
        ])
        let verifier = KataVerifier(workspace: Workspace(packageRoot: root), entries: [])
        let arguments = verifier.rejectedInvocation(decoy, of: lesson())
        XCTAssertEqual(Array(arguments.suffix(2)), ["\(folder)/Importer.swift", "Sources/Solutions/17-concurrency/Model/Row.swift"])
        XCTAssertTrue(arguments.contains("-emit-sil") && arguments.contains("-swift-version"),
                      "data races are found on SIL, in Swift 6 mode: \(arguments)")
    }

    /// What the rule rests on: the compiler as verify calls it rejects a value sent into a task while still in use,
    /// naming the group the manifest names, where `-typecheck` alone accepts it.
    func testTheCompilerAskedThisWayFindsADataRace() throws {
        let solution = """
            final class Counter { var value = 0 }
            func count() async {
                let counter = Counter()
                Task.detached { counter.value += 1 }
                print(counter.value)
            }
            """
        let root = try temporaryPackage(files: [
            "Sources/Solutions/17-concurrency/Importer.swift": "func count() async {}\n",
            "\(folder)/Importer.swift": solution,
        ])
        let verifier = KataVerifier(workspace: Workspace(packageRoot: root), entries: [])
        var output = ""
        let status = try ProcessRunner.run(verifier.rejectedInvocation(decoy, of: lesson()), in: root) { output += $0 + "\n" }
        let check = KataVerifier.judgeRejected(decoy, of: lesson(), status: status, output: output)
        XCTAssertNil(check.problem, output)
        XCTAssertEqual(check.rejectedBy?.hasPrefix("Importer.swift:4:"), true, check.rejectedBy ?? output)

        var typecheckOutput = ""
        let typecheck = try ProcessRunner.run(["swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6",
                                               "\(folder)/Importer.swift"], in: root) { typecheckOutput += $0 + "\n" }
        XCTAssertEqual(typecheck, 0, "type checking alone finds the race now: verify could use -typecheck. "
            + typecheckOutput)
    }

    private func temporaryPackage(files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("rejected-decoy-\(UUID().uuidString)", isDirectory: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }
}
