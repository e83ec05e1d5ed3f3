import Foundation

/// The code a kata run is built against: the learner's starters (`Sources/Workbook`), the reference solutions
/// (`Sources/Solutions`) or the decoys (`Sources/Decoys`).
///
/// The same kata files are compiled once per subject, as test modules of their own in one build folder:
/// `Katas` (the starters, all a learner's `swift test` builds), and — when the package is built with
/// ``verifyEnvironment`` — `KatasSolutions` and `KatasDecoys` beside it (`Tests/KatasSolutions` and
/// `Tests/KatasDecoys` are links to `Tests/Katas`; each module defines its subject's name, which the kata files'
/// `#if Solutions … #elseif Decoys` read). Persistence and everything else is compiled once for all three, and
/// a learner's build is never switched back and forth: adding the two modules only relinks the test executable.
public enum KataSubject: String, Sendable, CaseIterable {
    case starters
    case solutions
    case decoys

    /// The test module that holds the katas built against this subject.
    public var testModule: String {
        switch self {
        case .starters: return "Katas"
        case .solutions: return "KatasSolutions"
        case .decoys: return "KatasDecoys"
        }
    }

    /// Where the code lives, for messages.
    public var sourceFolder: String {
        switch self {
        case .starters: return "Sources/Workbook"
        case .solutions: return "Sources/Solutions"
        case .decoys: return "Sources/Decoys"
        }
    }

    /// The environment under which the package's manifest adds the solutions' and decoys' kata modules
    /// (Package.swift reads it); scripts/check builds with it too, so that its builds and verify's are one.
    public static let verifyEnvironment = ["LESSONS_KATA_SUBJECTS": "all"]

    /// The `XCTest` selector of a suite of this subject's module: `KatasSolutions.Kata01Testing`.
    public func selector(suite: String) -> String {
        "\(testModule).\(suite)"
    }

    /// The subject whose code a compiler message is about, from the file it names; nil when the file is shared
    /// by every subject (Persistence, KataSupport, the kata files themselves).
    public static func owning(_ message: String) -> KataSubject? {
        allCases.first { message.contains($0.sourceFolder + "/") }
    }
}
