/// One lesson as the manifest describes it (see `lessons/README.md` for the format).
public struct Lesson: Equatable, Sendable, Decodable {
    /// A source document section the lesson covers.
    public struct Source: Equatable, Sendable, Decodable {
        /// The document's id in the manifest's `documents` list, e.g. `"000"`.
        public var document: String
        public var sections: [String]
    }

    /// The lesson's XCTest suite and the file that holds it, each kata's hints, and the katas no decoy needs to
    /// reach.
    public struct Katas: Equatable, Sendable, Decodable {
        /// The XCTestCase subclass, e.g. `Kata05SavingSafely`; `lessons check` filters on it.
        public var suite: String
        /// Path relative to the package root, e.g. `Tests/Katas/Kata05SavingSafely.swift`.
        public var file: String
        /// Each kata's hints, keyed by its test method name (`test02_rollsBack…`), revealed one at a time by
        /// `lessons hint`: the first points at the concept, the last comes close to the answer.
        public var hints: [String: [LocalizedText]]
        /// Katas that no decoy has to fail, each with the reason (a kata that only checks set-up, say).
        /// `lessons verify` fails on any other kata that no decoy reaches.
        public var exempt: [String: String]

        public init(suite: String, file: String, hints: [String: [LocalizedText]] = [:],
                    exempt: [String: String] = [:]) {
            self.suite = suite
            self.file = file
            self.hints = hints
            self.exempt = exempt
        }

        private enum CodingKeys: String, CodingKey { case suite, file, hints, exempt }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            suite = try container.decode(String.self, forKey: .suite)
            file = try container.decode(String.self, forKey: .file)
            hints = try container.decodeIfPresent([String: [LocalizedText]].self, forKey: .hints) ?? [:]
            exempt = try container.decodeIfPresent([String: String].self, forKey: .exempt) ?? [:]
        }

        /// The hints of one kata, none when the manifest gives it none.
        public func hints(for kata: String) -> [LocalizedText] {
            hints[kata] ?? []
        }
    }

    /// The runnable code shown by `lessons run`.
    public struct Example: Equatable, Sendable, Decodable {
        /// The SwiftPM executable product, run as `swift run <product>`.
        public var product: String
        /// Its source folder relative to the package root; its absence means "not written yet".
        public var path: String
    }

    /// Known-wrong implementations that the katas must catch (see `lessons/README.md`, "Decoys").
    public struct Decoys: Equatable, Sendable, Decodable {
        /// One mistake: `Decoy.isActive("<id>")` switches it on in the code at ``Decoys/path`` — or, for a mistake
        /// Swift 6 refuses to compile (``rejectedWith``), files of its own at ``rejectedFolder(in:)``.
        public struct Case: Equatable, Sendable, Decodable {
            /// Lower-case words joined by `-`, unique in the manifest; `LESSONS_DECOY=<id>` selects it.
            public var id: String
            /// What the wrong answer does, in a sentence (shown by `lessons verify`).
            public var mistake: String
            /// For a wrong answer the compiler rejects before any kata runs (a managed object sent into a `Task`):
            /// a piece of the error that must reject it — words of its message, or its diagnostic group
            /// (`SendingRisksDataRace`), so that it counts as caught only when refused for that reason. nil for a
            /// decoy the katas catch.
            public var rejectedWith: String?

            public init(id: String, mistake: String, rejectedWith: String? = nil) {
                self.id = id
                self.mistake = mistake
                self.rejectedWith = rejectedWith
            }

            /// The folder of a rejected decoy's code, relative to the package root: Swift files that replace the
            /// reference solution's files of the same names (relative to the lesson's solution folder). It sits
            /// outside every target (the Decoys target excludes `Rejected`), since it does not compile.
            public func rejectedFolder(in lesson: Lesson) -> String {
                "\(Self.rejectedRoot)/\(lesson.folderName)/\(id)"
            }

            /// Where rejected decoys live, one folder a lesson.
            public static let rejectedRoot = "Sources/Decoys/Rejected"
        }

        /// The lesson's folder in `Sources/Decoys`, mirroring its starter.
        public var path: String
        public var cases: [Case]
    }

    public var number: Int
    /// Lower-case words joined by `-`; the lesson folder is `NN-slug`.
    public var slug: String
    public var title: LocalizedText
    /// One sentence on what the lesson covers, shown in lists and on the handouts' index.
    public var summary: LocalizedText
    /// Languages the lesson text exists in (planned or written), the first one being the original.
    public var languages: [Language]
    public var sources: [Source]
    public var katas: Katas
    /// Files or folders the learner edits (relative to the package root).
    public var starter: [String]
    /// The reference solutions, mirroring `starter`.
    public var solution: [String]
    public var example: Example
    /// Hints once belonged to the lesson; they are per kata now (``Katas/hints``). Kept only so that a manifest
    /// still giving a lesson-level `hints` list is refused with a message saying where they went.
    var lessonHints: [LocalizedText]? = nil
    /// The lesson's decoys; nil until it has any.
    public var decoys: Decoys?
    /// The Persistence-only API (its `@_spi` groups) that the lesson's starter, solution and example may use, each
    /// with the words of the lesson's text that name it as a stand-in; empty for most lessons: everything else they
    /// use must be Core Data's API (``StandIn``).
    public var standIns: [StandIn] {
        get { listedStandIns ?? [] }
        set { listedStandIns = newValue }
    }
    var listedStandIns: [StandIn]? = nil
    /// Whether the lesson's text and example have been reviewed for how much of each kata's answer they show
    /// (``TransferMeasure``): `lessons verify` fails on a flagged kata only in a reviewed lesson, and only reports
    /// it in the others, which are still to be rewritten.
    public var transferReviewed: Bool {
        get { listedTransferReviewed ?? false }
        set { listedTransferReviewed = newValue }
    }
    var listedTransferReviewed: Bool? = nil

    private enum CodingKeys: String, CodingKey {
        case number, slug, title, summary, languages, sources, katas, starter, solution, example, decoys
        case listedTransferReviewed = "transferReviewed"
        case lessonHints = "hints"
        case listedStandIns = "standIns"
    }

    /// `05-saving-safely`: the lesson's folder under `lessons/` and the stem of its handout page.
    public var folderName: String {
        (number < 10 ? "0\(number)" : "\(number)") + "-" + slug
    }

    /// `Kata05SavingSafely`: the lesson's XCTest suite, named from its number and slug.
    public var suiteName: String {
        let words = slug.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return "Kata" + folderName.dropLast(slug.count + 1) + words.joined()
    }

    /// The path of the lesson text in `language`, relative to the lessons folder.
    public func textPath(for language: Language) -> String {
        "\(folderName)/lesson.\(language.rawValue).md"
    }

    /// The language to show when `language` is asked for: itself when the lesson has it, else the original.
    public func bestLanguage(for language: Language) -> Language {
        languages.contains(language) ? language : languages[0]
    }
}
