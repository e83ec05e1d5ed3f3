import Foundation
import XCTest

extension PersistenceTestCase {
    /// Runs `swiftc -typecheck` (Swift 6 language mode) on `source`, one file that may hold top-level code, against
    /// the Persistence module built beside the test executable. Skips where there is no such module (not a SwiftPM
    /// build on Linux).
    func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let modules = products.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("Persistence.swiftmodule").path)
        else {
            throw XCTSkip("no Persistence.swiftmodule beside the test executable (\(modules.path)): not a SwiftPM build on Linux")
        }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources").standardizedFileURL
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
            "-I", sources.appendingPathComponent("CSQLite").path,
            "-I", sources.appendingPathComponent("CPersistenceSupport/include").path,
            "-Xcc", "-fmodule-map-file=" + products.appendingPathComponent("CPersistenceSupport.build/module.modulemap").path,
            file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
