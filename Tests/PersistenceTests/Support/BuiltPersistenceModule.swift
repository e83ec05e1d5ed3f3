import Foundation
import XCTest

/// The Persistence module SwiftPM built beside the test executable, and the compiler arguments that let a tool
/// (`swiftc`, `swift symbolgraph-extract`) import it: its folder and those of the C modules it imports.
struct BuiltPersistenceModule {
    /// `-I`, `-Xcc` arguments for a compiler or symbol-graph tool.
    let searchArguments: [String]

    /// The module next to this test executable; skips the test where there is none (not a SwiftPM build on Linux).
    init() throws {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let modules = products.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("Persistence.swiftmodule").path)
        else {
            throw XCTSkip("no Persistence.swiftmodule beside the test executable (\(modules.path)): not a SwiftPM build on Linux")
        }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources").standardizedFileURL
        searchArguments = [
            "-I", modules.path, "-I", sources.appendingPathComponent("CSQLite").path,
            "-I", sources.appendingPathComponent("CPersistenceSupport/include").path,
            "-Xcc", "-fmodule-map-file=" + products.appendingPathComponent("CPersistenceSupport.build/module.modulemap").path,
        ]
    }

    /// Runs the Swift tool `tool` (`["swiftc", "-typecheck"]`) with `arguments`, this module's search arguments, then
    /// `following`, and returns its exit status and its output and errors, together.
    func run(_ tool: [String], _ arguments: [String], following: [String] = []) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = tool + arguments + searchArguments + following
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
