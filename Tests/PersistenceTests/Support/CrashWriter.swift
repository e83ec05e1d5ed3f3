import Foundation
import XCTest

/// The package's `PersistenceCrashWriter` executable (Sources/PersistenceCrashWriter), which the process tests run
/// as a second program on a store file: killed mid-save, mid-migration, or writing while this process watches.
enum CrashWriter {
    struct Missing: Error {}

    /// The executable next to the test bundle (built by `swift build --build-tests`).
    static var url: URL {
        var folder = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folder = bundle.bundleURL.deletingLastPathComponent()
        }
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("PersistenceCrashWriter")
    }

    /// The executable, or a failure saying how to build it.
    static func checked(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("\(url.path) is missing: build with `swift build --build-tests` before `swift test`", file: file, line: line)
            throw Missing()
        }
        return url
    }

    /// Runs the writer with `arguments`, waits a random moment in `delay` (long enough to start and, most of the time,
    /// to be inside a transaction), kills it with SIGKILL and answers how it ended.
    static func runAndKill(_ arguments: [String], after delay: ClosedRange<Double> = 0.1...0.4) throws -> Process.TerminationReason {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: Double.random(in: delay))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason
    }
}
