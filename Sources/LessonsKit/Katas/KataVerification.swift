import Foundation

/// What `lessons verify` found when it ran the katas: against the starters (each must fail cleanly), the
/// reference solutions (each must pass), every decoy (each must be caught), and each lesson's example (it must
/// run). Rendered as the readable part of the report plus a one-line summary.
public struct KataVerification: Sendable, Equatable {
    /// One lesson's katas against the starters or the solutions.
    public struct SuiteCheck: Sendable, Equatable {
        public var lesson: Int
        public var suite: String
        public var katas: Int
        /// Katas that behaved as they must (failed cleanly against a starter, passed against a solution).
        public var good: Int
        /// One line per kata that did not, saying how.
        public var problems: [String]

        public init(lesson: Int, suite: String, katas: Int, good: Int, problems: [String]) {
            self.lesson = lesson
            self.suite = suite
            self.katas = katas
            self.good = good
            self.problems = problems
        }
    }

    /// One decoy's run.
    public struct DecoyCheck: Sendable, Equatable {
        public var lesson: Int
        public var id: String
        public var mistake: String
        /// The numbers of the katas that failed, i.e. caught it.
        public var caughtBy: [Int]
        /// For a decoy the compiler must reject: the error that rejected it (`File.swift:12:5: error: …`).
        public var rejectedBy: String?
        /// Why the run does not count (a crash, a build failure, nothing failed); nil when caught cleanly.
        public var problem: String?

        public init(lesson: Int, id: String, mistake: String, caughtBy: [Int], problem: String?) {
            self.lesson = lesson
            self.id = id
            self.mistake = mistake
            self.caughtBy = caughtBy
            self.problem = problem
        }
    }

    /// Which katas of one lesson the decoys reach: a kata that no wrong answer fails proves nothing, so each
    /// must be failed by at least one decoy, unless the manifest exempts it with a reason.
    public struct CoverageCheck: Sendable, Equatable {
        public var lesson: Int
        /// The suite's katas in file order.
        public var katas: [String]
        /// The numbers (from 1) of the katas at least one decoy failed.
        public var caught: Set<Int>
        /// Exempt katas and why, as the manifest says.
        public var exempt: [String: String]

        public init(lesson: Int, katas: [String], caught: Set<Int>, exempt: [String: String]) {
            self.lesson = lesson
            self.katas = katas
            self.caught = caught
            self.exempt = exempt
        }

        /// Katas no decoy failed, not exempt: each one a defect.
        public var uncovered: [String] {
            katas.enumerated().filter { !caught.contains($0.offset + 1) && exempt[$0.element] == nil }.map(\.element)
        }

        /// Exempt katas that no decoy failed (an exempt kata a decoy does reach needs no exemption).
        public var exemptUncaught: [String] {
            katas.enumerated().filter { !caught.contains($0.offset + 1) && exempt[$0.element] != nil }.map(\.element)
        }
    }

    /// One lesson's runnable example.
    public struct ExampleCheck: Sendable, Equatable {
        public var lesson: Int
        public var product: String
        public var problem: String?

        public init(lesson: Int, product: String, problem: String?) {
            self.lesson = lesson
            self.product = product
            self.problem = problem
        }
    }

    /// Compiler errors by the subject whose code they are in (shared code counts as the starters'); when there
    /// are any, nothing ran.
    public var buildErrors: [KataSubject: [String]] = [:]
    public var starters: [SuiteCheck] = []
    public var solutions: [SuiteCheck] = []
    public var decoys: [DecoyCheck] = []
    public var examples: [ExampleCheck] = []
    /// Per lesson, which katas the decoys reach; empty when the decoys did not run.
    public var coverage: [CoverageCheck] = []

    public init() {}

    public var katas: Int { starters.reduce(0) { $0 + $1.katas } }
    public var startersFailing: Int { starters.reduce(0) { $0 + $1.good } }
    public var solutionsPassing: Int { solutions.reduce(0) { $0 + $1.good } }
    public var solutionKatas: Int { solutions.reduce(0) { $0 + $1.katas } }
    public var decoysCaught: Int { decoys.filter { $0.problem == nil }.count }
    public var examplesRunning: Int { examples.filter { $0.problem == nil }.count }
    public var coveredKatas: Int { coverage.reduce(0) { $0 + $1.caught.count } }
    public var coverageKatas: Int { coverage.reduce(0) { $0 + $1.katas.count } }
    public var exemptKatas: Int { coverage.reduce(0) { $0 + $1.exemptUncaught.count } }

    public var ok: Bool {
        buildErrors.isEmpty && (starters + solutions).allSatisfy(\.problems.isEmpty) && decoys.allSatisfy { $0.problem == nil }
            && examples.allSatisfy { $0.problem == nil } && coverage.allSatisfy(\.uncovered.isEmpty)
    }

    /// The readable report, section by section.
    public func render(colors: Bool) -> String {
        func paint(_ text: String, _ style: TextStyle) -> String { StyledText(text, style).rendered(colors: colors) }
        let good = paint("✓", TextStyle(color: .green)), bad = paint("✗", TextStyle(bold: true, color: .red))
        var lines: [String] = []
        /// True when the subject built; otherwise its errors are listed instead of its checks.
        func built(_ subject: KataSubject) -> Bool {
            guard !buildErrors.isEmpty else { return true }
            guard let errors = buildErrors[subject] else {
                lines.append("  \(bad) not run: the build failed (see the errors listed here and in "
                    + ".build/lessons/verify-build.log)")
                return false
            }
            lines.append("  \(bad) did not build (see .build/lessons/verify-build.log):")
            lines += errors.prefix(5).map { "      " + $0 }
            if errors.count > 5 { lines.append("      … and \(errors.count - 5) more") }
            return false
        }
        func section(_ title: String, _ subject: KataSubject, _ checks: [SuiteCheck], _ verdict: String) {
            lines.append(paint(title, TextStyle(bold: true)))
            guard built(subject) else { return lines.append("") }
            for check in checks {
                let head = "lesson \(check.lesson), \(check.suite): "
                if check.problems.isEmpty {
                    lines.append("  \(good) " + head + (check.katas == 1 ? "its kata " : "all \(check.katas) katas ")
                        + verdict)
                } else {
                    lines.append("  \(bad) " + head + "\(check.good) of \(check.katas) katas " + verdict)
                    lines += check.problems.map { "      - " + $0 }
                }
            }
            lines.append("")
        }
        section("Katas against the starters (Sources/Workbook):", .starters, starters,
                "fail, each naming the lesson, the file and the function to change")
        section("Katas against the reference solutions (Sources/Solutions):", .solutions,
                solutions, "pass")
        lines.append(paint("Decoys (Sources/Decoys, one run each):", TextStyle(bold: true)))
        _ = built(.decoys)
        let idWidth = decoys.map(\.id.count).max() ?? 0
        for decoy in decoys {
            let label = (decoy.lesson < 10 ? " " : "") + "\(decoy.lesson) "
                + decoy.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
            if let problem = decoy.problem {
                lines.append("  \(bad) \(label)  \(problem)")
                lines.append("      (\(decoy.mistake))")
            } else if let error = decoy.rejectedBy {
                lines.append("  \(good) \(label)  rejected by the compiler: \(error)")
            } else {
                let katas = decoy.caughtBy.map(String.init).joined(separator: ", ")
                lines.append("  \(good) \(label)  caught by kata\(decoy.caughtBy.count == 1 ? "" : "s") \(katas)")
            }
        }
        lines.append("")
        if !coverage.isEmpty {
            lines.append(paint("Katas each failed by at least one decoy:", TextStyle(bold: true)))
            for check in coverage {
                let exempt = check.exemptUncaught.isEmpty ? "" : " (\(check.exemptUncaught.count) exempt)"
                if check.uncovered.isEmpty {
                    lines.append("  \(good) lesson \(check.lesson): \(check.caught.count) of \(check.katas.count) katas "
                        + "caught by a decoy" + exempt)
                } else {
                    lines.append("  \(bad) lesson \(check.lesson): \(check.caught.count) of \(check.katas.count) katas "
                        + "caught by a decoy" + exempt + "; no decoy fails:")
                    for kata in check.uncovered {
                        let number = (check.katas.firstIndex(of: kata) ?? 0) + 1
                        lines.append("      - kata \(number) \(kata): add a decoy it catches, or exempt it with a "
                            + "reason in the manifest (katas.exempt)")
                    }
                }
                for kata in check.exemptUncaught {
                    lines.append("      (\(kata) is exempt: \(check.exempt[kata] ?? ""))")
                }
            }
            lines.append("")
        }
        lines.append(paint("Examples:", TextStyle(bold: true)))
        for example in examples {
            if let problem = example.problem {
                lines.append("  \(bad) lesson \(example.lesson), \(example.product): \(problem)")
            } else {
                lines.append("  \(good) lesson \(example.lesson), \(example.product) runs")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `18 katas · starters failing 18/18 · solutions passing 18/18 · decoys caught 14/14 · katas caught by a
    /// decoy: 17/18 (1 exempt) · examples 2/2`
    public var summary: String {
        "\(katas) katas · starters failing \(startersFailing)/\(katas) · solutions passing "
            + "\(solutionsPassing)/\(solutionKatas) · decoys caught \(decoysCaught)/\(decoys.count) · katas caught "
            + "by a decoy: \(coveredKatas)/\(coverageKatas)" + (exemptKatas == 0 ? "" : " (\(exemptKatas) exempt)")
            + " · examples \(examplesRunning)/\(examples.count)"
    }
}
