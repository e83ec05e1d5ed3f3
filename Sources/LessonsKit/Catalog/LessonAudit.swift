import Foundation

/// What one lesson has of the parts a finished lesson needs — text, runnable example, katas, starter and
/// reference solution mirrored file by file, decoys, hints — and what is wrong with them.
///
/// A lesson with none of its parts on disk is *planned*: listed, not checked. Once any part exists, every part
/// must (a half-written lesson is a defect `lessons verify` reports).
public struct LessonAudit: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case planned
        case incomplete
        case ready
    }

    /// Hints each kata needs at least: the first points at the idea, the last comes close to the answer.
    public static let minimumHintsPerKata = 2

    public var lesson: Lesson
    public var state: State
    /// Languages whose text is written.
    public var writtenLanguages: [Language]
    /// The kata methods found in the kata file.
    public var katas: [String]
    /// Each problem: what is wrong and where.
    public var problems: [String]
    /// Worth knowing, not wrong (a translation still to come).
    public var notes: [String]
    /// How much of each kata's answer the text and example show (``TransferMeasure``); empty for a planned lesson.
    public var transfer: [KataTransfer]
    /// The katas whose answer the lesson mostly shows, one line each. In a lesson whose manifest entry is
    /// `transferReviewed`, each is also a problem; elsewhere they are reported until the lesson is rewritten.
    public var transferFlags: [String] {
        transfer.filter(\.isFlagged).map(\.flagDescription)
    }

    /// Whether the katas can be run: a kata file with katas, a starter and a solution.
    public var katasRunnable: Bool

    /// Audits `lesson`; `transfer` measures its katas' answers (one measure serves every lesson: it reads
    /// Persistence's and the workbook's sources), made here when not given.
    public init(_ lesson: Lesson, catalog: Catalog, transfer measure: TransferMeasure? = nil) {
        let workspace = catalog.workspace
        self.lesson = lesson
        writtenLanguages = catalog.writtenLanguages(of: lesson)
        katas = (try? KataSuite.load(lesson, workspace: workspace))?.katas ?? []
        problems = []
        notes = []
        transfer = []

        let decoyPath = lesson.decoys?.path
        let parts = [workspace.exists(lesson.katas.file), workspace.exists(lesson.example.path),
                     lesson.starter.contains(where: workspace.exists), lesson.solution.contains(where: workspace.exists),
                     decoyPath.map(workspace.exists) ?? false]
        guard !writtenLanguages.isEmpty || parts.contains(true) else {
            state = .planned
            katasRunnable = false
            return
        }
        state = .incomplete
        katasRunnable = !katas.isEmpty && !lesson.starter.isEmpty && lesson.starter.allSatisfy(workspace.exists)
            && lesson.solution.count == lesson.starter.count && lesson.solution.allSatisfy(workspace.exists)
        checkNames()
        checkText(catalog)
        checkExample(workspace)
        checkKatas(workspace)
        checkMirrors(workspace)
        checkDecoys(workspace)
        checkStandIns(catalog)
        checkHints()
        checkTransfer(measure ?? TransferMeasure(catalog: catalog))
        state = problems.isEmpty ? .ready : .incomplete
    }

    /// Every kata names code the solution declares; in a reviewed lesson, no kata's answer is mostly shown.
    private mutating func checkTransfer(_ measure: TransferMeasure) {
        transfer = measure.measure(lesson)
        for kata in transfer {
            for symbol in kata.missingSymbols {
                problems.append("\(lesson.katas.file): kata \(kata.number) names \(symbol) in \(kata.file), which does "
                    + "not declare it: name the function or property the kata exercises")
            }
            if kata.isFlagged, lesson.transferReviewed {
                problems.append(kata.flagDescription + " of this reviewed lesson (\"transferReviewed\"): teach with "
                    + "another domain and another shape of problem (`lessons transfer \(lesson.number) -v` lists the lines)")
            }
        }
    }

    /// One id per lesson: every folder of the lesson is named `NN-slug`, and its suite and example product are
    /// derived from it, so a lesson is found under one spelling everywhere.
    private mutating func checkNames() {
        let id = lesson.folderName
        let expected: [(field: String, found: [String], wanted: String)] = [
            ("starter", lesson.starter, "Sources/Workbook/\(id)"),
            ("solution", lesson.solution, "Sources/Solutions/\(id)"),
            ("decoys.path", lesson.decoys.map { [$0.path] } ?? [], "Sources/Decoys/\(id)"),
            ("example.path", [lesson.example.path], "Sources/Examples/\(id)"),
            ("example.product", [lesson.example.product], "example\(id)"),
            ("katas.suite", [lesson.katas.suite], lesson.suiteName),
            ("katas.file", [lesson.katas.file], "Tests/Katas/\(lesson.suiteName).swift"),
        ]
        for (field, found, wanted) in expected where found.contains(where: { $0 != wanted }) {
            problems.append("\(field) is \(found.map { "\"\($0)\"" }.joined(separator: ", ")); a lesson's names all come "
                + "from its id \(id): \"\(wanted)\"")
        }
    }

    private mutating func checkText(_ catalog: Catalog) {
        let original = lesson.languages[0]
        if !writtenLanguages.contains(original) {
            let file = catalog.workspace.displayPath(catalog.textFile(of: lesson, language: original))
            problems.append("no text: \(file) does not exist")
        }
        for language in lesson.languages where !writtenLanguages.contains(language) && language != original {
            notes.append("the \(language.nativeName) text is still to come")
        }
        let loader = LessonLoader(catalog: catalog)
        let leaks = SolutionLeakFinder(catalog: catalog)
        for language in writtenLanguages {
            do throws(LessonsError) {
                let loaded = try loader.load(lesson, language: language)
                problems += leaks.leaks(in: loaded.document, file: loaded.file)
            } catch {
                problems.append("\(error)")
            }
        }
    }

    private mutating func checkExample(_ workspace: Workspace) {
        let example = lesson.example
        if workspace.swiftFiles(at: example.path).isEmpty {
            problems.append("no runnable example: \(example.path) holds no Swift files")
        } else if let manifest = workspace.resolve("Package.swift"),
                  let text = try? String(contentsOf: manifest, encoding: .utf8),
                  !text.contains("\"\(lesson.folderName)\"") {
            // Package.swift makes every lesson's targets from one list of ids (`.init(id: "05-saving-safely")`).
            problems.append("Package.swift's list of lessons does not name \"\(lesson.folderName)\", so there is no "
                + "executable \"\(example.product)\" for \(example.path)")
        }
    }

    private mutating func checkKatas(_ workspace: Workspace) {
        let file = lesson.katas.file
        guard let url = workspace.resolve(file), let source = try? String(contentsOf: url, encoding: .utf8) else {
            problems.append("no katas: \(file) does not exist")
            return
        }
        if !source.contains("class \(lesson.katas.suite)") {
            problems.append("\(file) declares no class \(lesson.katas.suite), the suite the manifest names")
        }
        if katas.isEmpty { problems.append("\(file) has no kata (no `func test…()`)") }
    }

    /// Starter and solution hold the same Swift files, pair by pair, so they can offer the same API.
    private mutating func checkMirrors(_ workspace: Workspace) {
        if lesson.starter.isEmpty { problems.append("no starter listed") }
        if lesson.starter.count != lesson.solution.count {
            problems.append("\(lesson.starter.count) starter paths but \(lesson.solution.count) solution paths")
        }
        for path in lesson.starter + lesson.solution where !workspace.exists(path) {
            problems.append("\(path) does not exist")
        }
        for (starter, solution) in zip(lesson.starter, lesson.solution)
        where workspace.exists(starter) && workspace.exists(solution) {
            compare(starter, with: solution, workspace)
        }
    }

    /// The starter, the solution and the example use Core Data's API only, or a stand-in the lesson names: every
    /// `@_spi(Group) import Persistence` in them must name a group of the lesson's ``Lesson/standIns``, listed
    /// groups must be named in the text and used, and nothing imports Persistence `@testable`. The compiler does
    /// the rest: without the import, a group's declarations do not exist.
    private mutating func checkStandIns(_ catalog: Catalog) {
        let workspace = catalog.workspace
        let listed = Dictionary(lesson.standIns.map { ($0.group, $0) }, uniquingKeysWith: { first, _ in first })
        var used: Set<String> = []
        for folder in lesson.starter + lesson.solution + [lesson.example.path] {
            for file in workspace.swiftFiles(at: folder) {
                let path = folder.hasSuffix(".swift") ? folder : folder + "/" + file
                guard let url = workspace.resolve(path),
                      let source = try? String(contentsOf: url, encoding: .utf8) else { continue }
                let found = StandIn.imports(in: source)
                for line in found.testableLines {
                    problems.append("\(path):\(line) imports Persistence @testable; a lesson's code uses its public API")
                }
                for (group, line) in found.groups {
                    used.insert(group)
                    if StandIn.reserved.contains(group) {
                        problems.append("\(path):\(line) imports Persistence's @_spi(\(group)), which is for its own "
                            + "tests and the katas' support code, not for a lesson's code")
                    } else if listed[group] == nil {
                        problems.append("\(path):\(line) uses Persistence-only API (@_spi(\(group))) that lesson "
                            + "\(lesson.number) does not name: use Core Data's API, or list the group under \"standIns\" "
                            + "in the manifest with the words of the text that tell the learner it is a stand-in")
                    }
                }
            }
        }
        for standIn in lesson.standIns {
            if StandIn.reserved.contains(standIn.group) {
                problems.append("standIns lists \(standIn.group), which no lesson may use")
            }
            if !used.contains(standIn.group) {
                problems.append("standIns lists \(standIn.group), but no file of the starter, the solution or the "
                    + "example imports it: drop it from the manifest")
            }
            for language in writtenLanguages {
                let file = catalog.textFile(of: lesson, language: language)
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                if !text.contains(standIn.namedAs) {
                    problems.append("\(workspace.displayPath(file)) never mentions \(standIn.namedAs), the stand-in "
                        + "(@_spi(\(standIn.group))) the lesson's code uses: say that it is Persistence's, and what "
                        + "Core Data has instead")
                }
            }
        }
    }

    private mutating func checkDecoys(_ workspace: Workspace) {
        guard let decoys = lesson.decoys, !decoys.cases.isEmpty else {
            problems.append("no decoys: list at least one known-wrong answer under \"decoys\" in the manifest")
            return
        }
        guard workspace.exists(decoys.path) else {
            problems.append("\(decoys.path), the decoys' folder, does not exist")
            return
        }
        if lesson.starter.count == 1, workspace.exists(lesson.starter[0]) {
            compare(lesson.starter[0], with: decoys.path, workspace)
        }
        let coded = Set(DecoyScanner.ids(at: decoys.path, workspace: workspace))
        let listed = Set(decoys.cases.filter { $0.rejectedWith == nil }.map(\.id))
        checkRejectedDecoys(decoys.cases.filter { $0.rejectedWith != nil }, coded: coded, workspace)
        for id in listed.subtracting(coded).sorted() {
            problems.append("decoy \"\(id)\" is listed but \(decoys.path) never calls Decoy.isActive(\"\(id)\")")
        }
        for id in coded.subtracting(listed).sorted() {
            problems.append("\(decoys.path) uses decoy \"\(id)\", which the manifest does not list (so it never runs)")
        }
    }

    /// A decoy the compiler must reject has code of its own — files that replace solution files of the same
    /// names — and nothing else lies in the lesson's folder of rejected decoys.
    private mutating func checkRejectedDecoys(_ rejected: [Lesson.Decoys.Case], coded: Set<String>,
                                              _ workspace: Workspace) {
        let solutionFiles = Set(lesson.solution.first.map(workspace.swiftFiles(at:)) ?? [])
        for decoy in rejected {
            let folder = decoy.rejectedFolder(in: lesson)
            let files = workspace.swiftFiles(at: folder)
            if coded.contains(decoy.id) {
                problems.append("decoy \"\(decoy.id)\" is listed as rejected by the compiler, yet the decoys' code "
                    + "switches it on with Decoy.isActive: it is one or the other")
            }
            if files.isEmpty {
                problems.append("decoy \"\(decoy.id)\" must be rejected by the compiler, but \(folder) has no Swift "
                    + "files: put there the solution's files as the wrong answer writes them")
            }
            for file in files where !solutionFiles.contains(file) {
                problems.append("\(folder)/\(file) replaces no file of the solution (\(lesson.solution.first ?? "none")): "
                    + "a rejected decoy's files take the place of the solution's files of the same names")
            }
        }
        let root = Lesson.Decoys.Case.rejectedRoot + "/" + lesson.folderName
        guard let url = workspace.resolve(root),
              let folders = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
        let listed = Set(rejected.map(\.id))
        for folder in folders.sorted() where !folder.hasPrefix(".") && !listed.contains(folder) {
            problems.append("\(root)/\(folder) is no decoy the manifest lists with \"rejectedWith\" (so it is never "
                + "compiled)")
        }
    }

    /// Every kata has its hints, and the manifest names no kata the suite does not have (a renamed kata would
    /// otherwise lose its hints or its exemption without a word).
    private mutating func checkHints() {
        guard !katas.isEmpty else { return }
        let known = Set(katas)
        for kata in katas where lesson.katas.hints(for: kata).count < Self.minimumHintsPerKata {
            let count = lesson.katas.hints(for: kata).count
            problems.append("kata \(kata) has \(count) hint\(count == 1 ? "" : "s"); each kata needs at least "
                + "\(Self.minimumHintsPerKata) (katas.hints in the manifest)")
        }
        for kata in lesson.katas.hints.keys.sorted() where !known.contains(kata) {
            problems.append("katas.hints names \(kata), which \(lesson.katas.file) does not declare")
        }
        for kata in lesson.katas.exempt.keys.sorted() where !known.contains(kata) {
            problems.append("katas.exempt names \(kata), which \(lesson.katas.file) does not declare")
        }
    }

    private mutating func compare(_ starter: String, with mirror: String, _ workspace: Workspace) {
        let expected = Set(workspace.swiftFiles(at: starter))
        let actual = Set(workspace.swiftFiles(at: mirror))
        let missing = expected.subtracting(actual).sorted()
        let extra = actual.subtracting(expected).sorted()
        guard !missing.isEmpty || !extra.isEmpty else { return }
        var parts: [String] = []
        if !missing.isEmpty { parts.append("missing " + missing.joined(separator: ", ")) }
        if !extra.isEmpty { parts.append("extra " + extra.joined(separator: ", ")) }
        problems.append("\(mirror) does not mirror \(starter): " + parts.joined(separator: "; "))
    }
}
