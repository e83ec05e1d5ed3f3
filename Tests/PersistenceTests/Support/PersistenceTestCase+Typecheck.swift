import Foundation
import XCTest

extension PersistenceTestCase {
    /// Runs `swiftc -typecheck` (Swift 6 language mode) on `source`, one file that may hold top-level code, against
    /// the Persistence module built beside the test executable. Skips where there is no such module (not a SwiftPM
    /// build on Linux).
    func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let module = try BuiltPersistenceModule()
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        return try module.run(["swiftc", "-typecheck"], ["-swift-version", "6"], following: [file.path])
    }
}
