import Foundation
import XCTest
@testable import LessonsKit

/// Runs the built `lessons` binary, as a learner would, against the fixture lessons.
final class LessonsCLITests: TemporaryFolderTestCase {
    struct Output {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// The `lessons` executable next to the test bundle. `swift build --build-tests` (scripts/check) links it;
    /// `swift test` alone does not relink executables, so build first after changing the command.
    static var binary: URL {
        var folder = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folder = bundle.bundleURL.deletingLastPathComponent()
        }
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("lessons")
    }

    private var progressFile: URL { temporary.appendingPathComponent("progress.json") }

    /// Runs `lessons ARGS` on the fixture lessons with a private progress file and a plain environment.
    private func lessons(_ arguments: [String], fixture: Bool = true, environment: [String: String] = [:]) throws -> Output {
        let binary = Self.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            XCTFail("\(binary.path) is missing: build it with `swift build --build-tests` before `swift test`")
            throw CocoaError(.fileNoSuchFile)
        }
        let process = Process()
        process.executableURL = binary
        let common = fixture ? ["--lessons-dir", TestPaths.fixtureLessons.path, "--progress-file", progressFile.path] : []
        // Options go after the subcommand; a bare run keeps the default (list) command.
        if let first = arguments.first, !first.hasPrefix("-") {
            process.arguments = [first] + common + arguments.dropFirst()
        } else {
            process.arguments = arguments.isEmpty ? common : arguments
        }
        process.currentDirectoryURL = TestPaths.packageRoot
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
                   "HOME": temporary.path, "COLUMNS": "80"]
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var stdoutData = Data()
        let group = DispatchGroup()
        group.enter()
        let reader = out.fileHandleForReading
        nonisolated(unsafe) var collected = Data()
        DispatchQueue.global().async {
            collected = reader.readDataToEndOfFile()
            group.leave()
        }
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        stdoutData = collected
        process.waitUntilExit()
        return Output(stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self),
                      status: process.terminationStatus)
    }

    func testHelpGolden() throws {
        let root = try lessons(["--help"], fixture: false)
        XCTAssertEqual(root.status, 0)
        assertMatchesGolden(root.stdout, "cli-help.txt")
        let show = try lessons(["show", "--help"], fixture: false)
        assertMatchesGolden(show.stdout, "cli-show-help.txt")
        for command in ["list", "run", "check", "watch", "hint", "reset", "solution", "html", "verify", "transfer", "lab",
                        "doctor"] {
            let help = try lessons([command, "--help"], fixture: false)
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.stdout.contains("USAGE: lessons \(command)"), command)
        }
    }

    func testTransferPrintsAPlainTableWithinEightyColumns() throws {
        let root = temporary.appendingPathComponent("book")
        try TransferWorkbook.write(into: root, example: TransferWorkbook.renamedCopy, reviewed: nil)
        let plain = try lessons(["transfer", "--package-root", root.path], fixture: false)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout, """
            lesson  kata                                         lines  shown
               1     1 importsEverything                             5    80%  flagged

            Flagged: 1 of 1 katas, whose lesson shows 50% or more of a solution of 4 or more
            lines. A solution's lines that 4 or more other lessons show too are everyday
            vocabulary, left out.
            Reviewed lessons, where a flagged kata fails `lessons verify`: none.

            """)
        let verbose = try lessons(["transfer", "1", "--package-root", root.path, "-v"], fixture: false)
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        let lines = verbose.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(Array(lines[2...3]), [
            "        Library.swift:12  let request = BatchInsertRequest(entityName: \"Deck\", …",
            "          shown in Sources/Examples/01-one/main.swift:3",
        ])
        XCTAssertEqual(lines.filter { $0.contains("shown in") }.count, TransferReport.shownLinesListed)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, verbose.stdout)
        XCTAssertFalse(verbose.stdout.contains("\u{1B}"), "no colour when the output is not a terminal")
        let unknown = try lessons(["transfer", "9", "--package-root", root.path], fixture: false)
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("unknown lesson \"9\""), unknown.stderr)
    }

    func testListGoldenAndDefaultCommand() throws {
        let list = try lessons(["list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertEqual(list.stderr, "")
        assertMatchesGolden(list.stdout, "cli-list.txt")
        XCTAssertEqual(try lessons([]).stdout, list.stdout)
        XCTAssertTrue(try lessons(["list", "--lang", "ru"]).stdout.contains("   2  new         Два языка [ru, en]"))
    }

    func testListWrapsToTheTerminalWidth() throws {
        let list = try lessons(["list"], environment: ["COLUMNS": "40"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.hasSuffix("\nNext: read lesson 1, Every construct:\n      swift run lessons show 1\n"),
                      list.stdout)
        let real = try lessons(["list", "--progress-file", progressFile.path], fixture: false,
                               environment: ["COLUMNS": "60"])
        for line in real.stdout.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 59, String(line)) }
        XCTAssertTrue(real.stdout.contains("   1  new         Testing Core Data code: from a naive\n"
            + "                  manager to an injected one\n"), real.stdout)
    }

    func testTheRealManifestLists16Lessons() throws {
        let list = try lessons(["list", "--progress-file", progressFile.path], fixture: false)
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.hasPrefix("Core Data workbook — 16 lessons, 0 done\n"), list.stdout)
        XCTAssertTrue(list.stdout.contains("  11  "), list.stdout)
        XCTAssertTrue(list.stdout.contains("  16  new         Changing the model: versions and migration"), list.stdout)
        XCTAssertTrue(list.stdout.contains("  15  new         Lists that follow the store: the fetched results controller"),
                      list.stdout)
    }

    func testUnknownLessonGolden() throws {
        let output = try lessons(["show", "99"])
        XCTAssertEqual(output.status, 1)
        XCTAssertEqual(output.stdout, "")
        assertMatchesGolden(output.stderr, "cli-unknown-lesson.txt")
    }

    func testUnknownOptionAndBadLanguage() throws {
        let option = try lessons(["show", "1", "--colour"])
        XCTAssertEqual(option.status, 64)
        XCTAssertTrue(option.stderr.hasPrefix("Error: Unknown option '--colour'"), option.stderr)
        let command = try lessons(["shwo", "1"], fixture: false)
        XCTAssertEqual(command.status, 64, "a usage error, like an unknown option")
        XCTAssertEqual(command.stderr, "Error: unknown command \"shwo\". Commands: list, show, run, check, watch, hint, "
            + "reset, solution, html, verify, transfer, lab, doctor (see lessons --help).\n")
        let language = try lessons(["show", "1", "--lang", "de"])
        XCTAssertEqual(language.status, 64)
        XCTAssertTrue(language.stderr.contains("Please provide one of 'en' and 'ru'."), language.stderr)
        let width = try lessons(["show", "1", "--width", "5"])
        XCTAssertEqual(width.status, 64)
        XCTAssertTrue(width.stderr.contains("--width must be at least 20 (got 5)."), width.stderr)
    }

    func testANegativeNumberIsNamedAsSuch() throws {
        let show = try lessons(["show", "-1"])
        XCTAssertEqual(show.status, 64)
        XCTAssertEqual(show.stderr, "Error: there is no lesson -1: lessons are numbered from 1 (`lessons list` shows them).\n")
        let check = try lessons(["check", "1", "-2"])
        XCTAssertEqual(check.status, 64)
        XCTAssertEqual(check.stderr, "Error: there is no kata -2: katas are numbered from 1.\n")
        // A number that is an option's value is the parser's to judge.
        let width = try lessons(["show", "1", "--width", "-5"])
        XCTAssertEqual(width.status, 64)
        XCTAssertTrue(width.stderr.hasPrefix("Error: Missing value for '--width <width>'"), width.stderr)
    }

    func testHTMLNamesWhyItCannotWrite() throws {
        let file = try write("not a folder\n", to: "notes.txt")
        let under = try lessons(["html", "--out", file.appendingPathComponent("handouts").path])
        XCTAssertEqual(under.status, 1)
        XCTAssertEqual(under.stderr, "Error: cannot write the handouts into \(file.path)/handouts: \(file.path) is a file, "
            + "not a folder\n")
        let onto = try lessons(["html", "--out", file.path])
        XCTAssertEqual(onto.stderr, "Error: cannot write the handouts into \(file.path): it is a file, not a folder\n")
        let proc = try lessons(["html", "--out", "/proc/handouts"])
        XCTAssertEqual(proc.status, 1)
        XCTAssertEqual(proc.stderr, "Error: cannot write the handouts into /proc/handouts: cannot create the folder "
            + "/proc/handouts: /proc does not allow new files (a system folder such as /proc or /sys)\n")
        // No Foundation error code (512) leaks through; the temporary path itself may hold any digits.
        XCTAssertFalse(under.stderr.replacingOccurrences(of: file.path, with: "").contains("512") || proc.stderr.contains("doesn’t exist"))
    }

    func testUnwrittenLessonSaysSo() throws {
        let output = try lessons(["show", "3"])
        XCTAssertEqual(output.status, 1)
        XCTAssertEqual(output.stderr, "Error: lesson 3, Coming soon, is not written yet "
            + "(Tests/LessonsTests/Fixtures/lessons/03-coming-soon/lesson.en.md does not exist). "
            + "`lessons list` shows which lessons are.\n")
    }

    func testShowIsPlainWhenPipedAndMarksTheLessonRead() throws {
        let output = try lessons(["show", "every-construct", "--width", "60"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertFalse(output.stdout.contains("\u{1B}"))
        let body = try String(contentsOf: TestPaths.golden.appendingPathComponent("every-construct.plain.txt"), encoding: .utf8)
        // The header and footer wrap to --width like the text between them.
        XCTAssertEqual(output.stdout, "Lesson 1 of 3\nTests/LessonsTests/Fixtures/lessons/01-every-construct/\n"
            + "lesson.en.md\n\n" + body + "\nKatas: swift run lessons check 1\nHint: swift run lessons hint 1\n"
            + "Example: swift run lessons run 1\n")
        let wide = try lessons(["show", "every-construct", "--width", "100"])
        XCTAssertTrue(wide.stdout.hasSuffix("\nKatas: swift run lessons check 1 · Hint: swift run lessons hint 1 · "
            + "Example: swift run lessons run 1\n"), wide.stdout)
        XCTAssertEqual(ProgressStore(file: progressFile).progress.lessons["every-construct"]?.read, true)
    }

    func testShowPicksTheLanguage() throws {
        XCTAssertTrue(try lessons(["show", "2"], environment: ["LANG": "ru_RU.UTF-8"]).stdout.contains("Два языка\n━━━━━━━━━"))
        XCTAssertTrue(try lessons(["show", "2", "--lang", "en"]).stdout.contains("Two languages\n━━━━━━━━━━━━━"))
        let fallback = try lessons(["show", "1", "--lang", "ru"])
        XCTAssertEqual(fallback.status, 0)
        XCTAssertEqual(fallback.stderr, "Lesson 1 is not written in Русский; showing English.\n")
    }

    func testHintsAreProgressivePerKataAndRemembered() throws {
        let kata = "testFailuresThrowsSkipsAndMultiLineMessages"
        let first = try lessons(["hint", "1"])
        XCTAssertEqual(first.stdout, "Hint 1 of 3 — lesson 1, kata 1 (\(kata))\n    Look at `escape(_:)` first.\n\n"
            + "More: swift run lessons hint 1 1 (2 left)\n", "nothing checked yet: the first kata")
        let second = try lessons(["hint", "1", "--lang", "ru"])
        XCTAssertTrue(second.stdout.contains("Hint 2 of 3 — lesson 1, kata 1 (\(kata))\n    Амперсанд заменяется **первым**."),
                      second.stdout)
        XCTAssertTrue(second.stdout.hasPrefix("Hint 1 of 3"))
        XCTAssertEqual(ProgressStore(file: progressFile).progress.lessons["every-construct"]?.hintsRevealed, [kata: 2])
        _ = try lessons(["hint", "1"])
        XCTAssertTrue(try lessons(["hint", "1"]).stdout.hasSuffix("That was this kata's last hint. The solution opens "
            + "once the katas pass: swift run lessons check 1\n"))

        // With a check recorded, `hint N` turns to the first kata that did not pass; `hint N K` to kata K.
        var store = ProgressStore(file: progressFile)
        try store.update { $0.lessons["every-construct", default: LessonProgress()].katas = [kata: .passed] }
        XCTAssertTrue(try lessons(["hint", "1"]).stdout.hasPrefix("Hint 1 of 2 — lesson 1, kata 2 "
            + "(testCrashIsPinnedOnTheKataThatWasRunning)\n    A crash ends the process.\n"))
        XCTAssertTrue(try lessons(["hint", "1", "testMac"]).stdout.hasPrefix("Hint 1 of 2 — lesson 1, kata 5 (testMacOSFormat)"))
        XCTAssertEqual(try lessons(["hint", "1", "5", "--forget"]).status, 0)
        XCTAssertNil(ProgressStore(file: progressFile).progress.lessons["every-construct"]?.hintsRevealed["testMacOSFormat"])
        XCTAssertEqual(ProgressStore(file: progressFile).progress.lessons["every-construct"]?.hintsRevealed[kata], 3)
        XCTAssertEqual(try lessons(["hint", "1", "--forget"]).status, 0)
        XCTAssertEqual(ProgressStore(file: progressFile).progress.lessons["every-construct"]?.hintsRevealed, [:])
        let none = try lessons(["hint", "2"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.hasPrefix("Error: lesson 2's katas are not written yet"), none.stderr)
    }

    func testSolutionOpensOnlyAfterTheKatasPass() throws {
        let locked = try lessons(["solution", "1"])
        XCTAssertEqual(locked.status, 1)
        XCTAssertEqual(locked.stderr, "Error: lesson 1's solution opens once all its katas pass (not checked yet): "
            + "swift run lessons check 1\n")
        var store = ProgressStore(file: progressFile)
        try store.update { $0.lessons["every-construct"] = LessonProgress(passed: true) }
        let open = try lessons(["solution", "1"])
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertTrue(open.stdout.hasPrefix("    ┈┈ Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift\n"), open.stdout)
        XCTAssertTrue(open.stdout.contains("    public enum HTMLEscaping {"))
    }

    func testCheckAndWatchNameWhatIsMissingOrWrong() throws {
        let noKatas = try lessons(["check", "2"])
        XCTAssertEqual(noKatas.status, 1)
        XCTAssertTrue(noKatas.stderr.hasPrefix("Error: lesson 2's katas are not written yet: Tests/Katas/Kata02TwoLanguages.swift"))
        let badKata = try lessons(["check", "1", "test99"])
        XCTAssertEqual(badKata.status, 1)
        XCTAssertTrue(badKata.stderr.hasPrefix("Error: unknown kata \"test99\" in XCTestOutputParserTests. Valid katas:\n"
            + "  1  testFailuresThrowsSkipsAndMultiLineMessages\n"), badKata.stderr)
        XCTAssertEqual(try lessons(["watch", "2"]).status, 1)
        let interval = try lessons(["watch", "1", "--interval", "0"])
        XCTAssertEqual(interval.status, 64)
    }

    func testLabListsTheLabsAndRefusesBadChoices() throws {
        let list = try lessons(["lab"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("\n  search           three contains[cd] terms over 1.6 million cards"), list.stdout)
        XCTAssertTrue(list.stdout.contains("\n  faults           averaging one attribute over 200,000 objects"), list.stdout)
        XCTAssertTrue(list.stdout.contains("\n  fetched-results  a fetched results controller over 100,000 items"), list.stdout)
        XCTAssertTrue(list.stdout.contains("\n  migration        200,000 rows migrated on load"), list.stdout)
        XCTAssertTrue(list.stdout.contains("\n  history          a 200,000-row batch import"), list.stdout)
        XCTAssertTrue(list.stdout.hasSuffix("Run one with `swift run lessons lab NAME` (add --rows N or --scale F to "
            + "run smaller, --json for machines).\n"), list.stdout)
        let unknown = try lessons(["lab", "serch"])
        XCTAssertEqual(unknown.status, 64, "a usage error, like an unknown lesson number")
        XCTAssertEqual(unknown.stderr,
                       "Error: there is no lab called 'serch'. The labs: search, delete, import, faults, history, fetched-results, migration.\n")
        for (arguments, message) in [(["lab", "search", "--rows", "0"], "--rows must be a positive number, not 0."),
                                     (["lab", "search", "--scale", "20"], "--scale must be more than 0 and at most 10"),
                                     (["lab", "search", "--rows", "5", "--scale", "1"], "give --rows or --scale, not both.")] {
            let bad = try lessons(arguments)
            XCTAssertEqual(bad.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(bad.stderr.hasPrefix("Error: " + message), bad.stderr)
        }
    }

    /// `lab NAME --json` through the real command and the real lab program (its debug build, so no release build
    /// in a unit test): one JSON object on standard output, one plain line per step on standard error.
    func testLabPrintsOneJSONObjectAndPlainProgressOffATerminal() throws {
        let program = Self.binary.deletingLastPathComponent().appendingPathComponent("persistence-labs")
        let output = try lessons(["lab", "faults", "--rows", "200", "--json", "--lab-program", program.path])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.stderr, "filling 200 readings…\nobjects as faults…\nobjects not as faults…\n"
            + "dictionaries of the one attribute…\n")
        XCTAssertEqual(output.stdout.filter { $0 == "\n" }.count, 1, "one line: \(output.stdout)")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["lab", "rows", "build", "cores", "peakMemoryMB", "measurements"])
        XCTAssertEqual(object["lab"] as? String, "faults")
        XCTAssertEqual(object["rows"] as? Int, 200)
        XCTAssertEqual(object["cores"] as? Int, ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertGreaterThan(object["peakMemoryMB"] as? Double ?? 0, 0)
        let measurements = try XCTUnwrap(object["measurements"] as? [[String: Any]])
        XCTAssertEqual(measurements.compactMap { $0["name"] as? String },
                       ["objects as faults", "objects not as faults", "dictionaries of the one attribute"])
        for measurement in measurements {
            XCTAssertTrue(Set(measurement.keys).isSubset(of: ["name", "seconds", "peakMemoryMB", "sqlStatements",
                                                              "note"]), "\(measurement)")
            XCTAssertEqual(measurement["sqlStatements"] as? Int, 1, "one SELECT each, from the SQL debug log")
            XCTAssertGreaterThanOrEqual(measurement["seconds"] as? Double ?? -1, 0)
            XCTAssertTrue((measurement["note"] as? String ?? "").hasSuffix(" over 200 objects"), "\(measurement)")
        }

        let table = try lessons(["lab", "delete", "--scale", "0.01", "--lab-program", program.path])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasPrefix("Lab delete: 10,000 decks of 10 cards deleted through a child context"),
                      table.stdout)
        XCTAssertTrue(table.stdout.contains("\nchild context   "), table.stdout)
        XCTAssertTrue(table.stdout.contains("  2 min  "), "the document's figure beside the way: \(table.stdout)")
        XCTAssertTrue(table.stdout.contains("100 decks · debug build · "), table.stdout)
        XCTAssertFalse(table.stdout.contains("\u{1B}["), "no colour off a terminal")
    }

    /// A lab program that does not compile: the compiler's error reaches the learner, and the command fails.
    func testLabShowsTheCompilersErrorWhenTheLabsDoNotBuild() throws {
        _ = try write("""
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Broken", targets: [.executableTarget(name: "persistence-labs")])
            """, to: "broken/Package.swift")
        _ = try write("let rows: Int = \"many\"\n", to: "broken/Sources/persistence-labs/main.swift")
        let package = temporary.appendingPathComponent("broken")
        let output = try lessons(["lab", "faults", "--rows", "10", "--package-root", package.path], fixture: false)
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stderr.hasPrefix("building the labs in release mode (.build/labs)…\n"
            + "Error: the labs did not build (swift build exit status 1):\n"), output.stderr)
        XCTAssertTrue(output.stderr.contains("main.swift:1:17: error: cannot convert value of type 'String' to "
            + "specified type 'Int'"), output.stderr)
        XCTAssertEqual(output.stdout, "")
    }

    func testNotThereYetCommands() throws {
        let run = try lessons(["run", "1"])
        XCTAssertEqual(run.stderr, "Error: lesson 1's runnable example is not written yet (Sources/Examples/01-every-construct "
            + "does not exist; it will run as `swift run example01-every-construct`).\n")
        let reset = try lessons(["reset", "2"])
        XCTAssertEqual(reset.status, 1)
        XCTAssertTrue(reset.stderr.contains("Sources/Workbook/02-two-languages is not in HEAD"), reset.stderr)
        // Files only: running the fixture's katas would start a second `swift test` inside this one.
        let verify = try lessons(["verify", "--no-katas"])
        XCTAssertEqual(verify.status, 1)
        XCTAssertTrue(verify.stdout.contains("  ·  3 coming-soon      planned: nothing written yet\n"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("\nSummary: 0 of 3 lessons ready (1 planned) · transfer: 0 katas flagged — verify FAILED in "),
                      verify.stdout)
        let one = try lessons(["verify", "3", "--no-katas"])
        XCTAssertEqual(one.status, 0, one.stdout)
        XCTAssertTrue(one.stdout.contains("  0 ready, 0 incomplete, 1 planned."), one.stdout)
        XCTAssertEqual(try lessons(["verify", "9", "--no-katas"]).status, 1)
    }

    func testResetRestoresTheStarterFromGitAndKeepsABackup() throws {
        // A tiny workbook in a git repository: the fixture lessons and lesson 1's starter file, committed.
        let root = temporary.appendingPathComponent("workbook")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.fixtureLessons, to: root.appendingPathComponent("lessons"))
        _ = try write("// Package\n", to: "workbook/Package.swift")
        let starter = try write("original\n", to: "workbook/Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift")
        for command in [["init", "-q"], ["add", "."], ["-c", "user.name=T", "-c", "user.email=t@e", "commit", "-qm", "start"]] {
            XCTAssertEqual(try ProcessRunner.run(["git", "-C", root.path] + command, in: root) { _ in }, 0)
        }
        try Data("my attempt\n".utf8).write(to: starter)
        var store = ProgressStore(file: root.appendingPathComponent(".lessons-progress.json"))
        try store.update { $0.lessons["every-construct"] = LessonProgress(katas: ["a": .passed], passed: true) }

        let output = try lessons(["reset", "1", "--package-root", root.path], fixture: false)
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(try String(contentsOf: starter, encoding: .utf8), "original\n")
        XCTAssertTrue(output.stdout.hasPrefix("Restored Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift from HEAD.\n"
            + "Your previous version is in .lessons-backups/"), output.stdout)
        let backups = root.appendingPathComponent(".lessons-backups")
        let stamp = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: backups.path).first)
        let backup = backups.appendingPathComponent(stamp + "/Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift")
        XCTAssertEqual(try String(contentsOf: backup, encoding: .utf8), "my attempt\n")
        XCTAssertEqual(ProgressStore(file: root.appendingPathComponent(".lessons-progress.json")).progress
            .lessons["every-construct"], LessonProgress(passed: true), "the katas' results go; the lesson stays done")
        let badRevision = try lessons(["reset", "1", "--package-root", root.path, "--from", "nope"], fixture: false)
        XCTAssertEqual(badRevision.stderr, "Error: git knows no revision \"nope\" (try HEAD or origin/main).\n")
    }

    func testCorruptProgressFileIsReportedAndRebuilt() throws {
        try Data("]]] garbage".utf8).write(to: progressFile)
        let output = try lessons(["list"])
        XCTAssertEqual(output.status, 0)
        XCTAssertTrue(output.stderr.hasPrefix("warning: the progress file progress.json could not be read (not valid "
            + "progress JSON); it was kept as progress.json.corrupt-"), output.stderr)
        let aside = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.contains(".corrupt-") }
        XCTAssertEqual(aside.count, 1)
        _ = try lessons(["show", "1"])
        XCTAssertEqual(try lessons(["list"]).stderr, "", "the rebuilt file reads cleanly")
    }

    func testHTMLWritesTheSite() throws {
        let out = temporary.appendingPathComponent("handouts")
        let output = try lessons(["html", "--out", out.path], environment: ["COLUMNS": "300"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stdout.hasPrefix("Wrote 8 files to \(out.path): index.html, 3 lesson pages (2 of 3 lessons "
            + "written), all.html for printing.\nListed as coming: lessons 3.\n"), output.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("all.html").path))
        // In a narrow terminal the summary wraps between words.
        let narrow = try lessons(["html", "--out", out.path], environment: ["COLUMNS": "40"])
        let lines = narrow.stdout.split(separator: "\n")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 39 }, narrow.stdout)
        // Where the lines break depends on the temporary folder's length; that no word is cut does not.
        XCTAssertTrue(narrow.stdout.replacingOccurrences(of: "\n", with: " ").contains(
            "3 lesson pages (2 of 3 lessons written), all.html for printing. Listed as coming: lessons 3. "),
                      narrow.stdout)
        XCTAssertGreaterThan(lines.count, 5, "it wrapped")
    }
}
