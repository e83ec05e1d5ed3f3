import Foundation
import XCTest
@testable import LessonsKit

/// Many programs a few at a time (`lessons verify`'s runs): they really overlap, each has a log and a temporary
/// folder of its own, and every status comes back in the jobs' order.
final class ProcessPoolTests: TemporaryFolderTestCase {
    /// A job that marks itself started, waits (up to five seconds) until `expected` jobs have, then prints how many
    /// it saw and its TMPDIR, and exits with `code`.
    private func job(_ index: Int, expected: Int, code: Int) -> ProcessPool.Job {
        let marks = temporary.appendingPathComponent("marks").path
        let script = """
            touch "\(marks)/\(index)"; i=0
            while [ "$(ls "\(marks)" | wc -l)" -lt \(expected) ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
            echo "saw $(ls "\(marks)" | wc -l) tmp=$TMPDIR job=$JOB"; exit \(code)
            """
        return .init(arguments: ["sh", "-c", script], environment: ["JOB": "\(index)"],
                     log: temporary.appendingPathComponent("job\(index).log"))
    }

    func testJobsRunTogetherEachWithItsOwnLogAndTemporaryFolder() throws {
        try FileManager.default.createDirectory(at: temporary.appendingPathComponent("marks"),
                                                withIntermediateDirectories: true)
        let jobs = (0..<3).map { job($0, expected: 3, code: $0) }
        var finished: [String] = []
        let statuses = ProcessPool.run(jobs, in: temporary, width: 3) { index, outcome in
            finished.append("\(index):\(outcome.status)")
        }.map(\.status)
        XCTAssertEqual(statuses, [0, 1, 2])
        XCTAssertEqual(finished.sorted(), ["0:0", "1:1", "2:2"], "each job is reported once as it ends")
        var folders: Set<String> = []
        for (index, job) in jobs.enumerated() {
            let line = try String(contentsOf: job.log, encoding: .utf8).trimmingWhitespace
            XCTAssertTrue(line.hasPrefix("saw 3 "), "job \(index) ran while the others did: \(line)")
            XCTAssertTrue(line.hasSuffix("job=\(index)"), "job \(index) got its own environment: \(line)")
            folders.insert(String(line.split(separator: " ")[2]))
        }
        XCTAssertEqual(folders.count, 3, "every job has a temporary folder of its own: \(folders)")
        XCTAssertFalse(folders.contains { FileManager.default.fileExists(atPath: String($0.dropFirst(4))) },
                       "the temporary folders are removed afterwards")
    }

    func testJobsStartInTheOrderGivenAndReportHowLongTheyRan() throws {
        let started = temporary.appendingPathComponent("started").path
        let jobs = (0..<3).map { index in
            ProcessPool.Job(arguments: ["sh", "-c", "echo \(index) >> \"\(started)\"; sleep \(index == 1 ? "0.3" : "0")"],
                            log: temporary.appendingPathComponent("job\(index).log"))
        }
        let outcomes = ProcessPool.run(jobs, in: temporary, width: 1, order: [2, 0, 1])
        XCTAssertEqual(try String(contentsOfFile: started, encoding: .utf8), "2\n0\n1\n", "one at a time, in order")
        XCTAssertEqual(outcomes.map(\.status), [0, 0, 0])
        XCTAssertGreaterThanOrEqual(outcomes[1].seconds, 0.3, "the job that slept 0.3 s ran at least that long")
        XCTAssertLessThan(outcomes[0].seconds, outcomes[1].seconds)
    }

    func testAnOrderThatIsNotEveryJobOnceIsIgnored() throws {
        let started = temporary.appendingPathComponent("started").path
        let jobs = (0..<2).map { index in
            ProcessPool.Job(arguments: ["sh", "-c", "echo \(index) >> \"\(started)\""],
                            log: temporary.appendingPathComponent("job\(index).log"))
        }
        let outcomes = ProcessPool.run(jobs, in: temporary, width: 1, order: [1, 1])
        XCTAssertEqual(try String(contentsOfFile: started, encoding: .utf8), "0\n1\n", "each job runs once, in its own order")
        XCTAssertEqual(outcomes.map(\.status), [0, 0])
    }

    func testAJobThatCannotStartHasStatus127AndSaysWhy() throws {
        let log = temporary.appendingPathComponent("missing.log")
        let statuses = ProcessPool.run([.init(arguments: ["lessons-no-such-program-here"], log: log)], in: temporary)
        XCTAssertEqual(statuses.map(\.status), [127])
        XCTAssertTrue(try String(contentsOf: log, encoding: .utf8).contains("lessons-no-such-program-here"))
    }
}
