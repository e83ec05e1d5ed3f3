/// What a learner has done, as stored in `.lessons-progress.json` (format documented in `lessons/README.md`).
///
/// Every field has a default, so a hand-edited file with missing keys still loads.
public struct LearnerProgress: Codable, Equatable, Sendable {
    /// The file format; this code writes and reads format 1.
    public var format: Int
    /// Keyed by lesson slug, so reordering lessons keeps progress.
    public var lessons: [String: LessonProgress]

    public init(lessons: [String: LessonProgress] = [:]) {
        self.format = 1
        self.lessons = lessons
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(Int.self, forKey: .format) ?? 1
        lessons = try container.decodeIfPresent([String: LessonProgress].self, forKey: .lessons) ?? [:]
    }

    public subscript(lesson: Lesson) -> LessonProgress {
        get { lessons[lesson.slug] ?? LessonProgress() }
        set { lessons[lesson.slug] = newValue }
    }
}

/// One lesson's progress.
public struct LessonProgress: Codable, Equatable, Sendable {
    /// The learner opened the lesson text (`lessons show`).
    public var read: Bool
    /// How many hints of each kata have been revealed, keyed by the kata's test method name.
    public var hintsRevealed: [String: Int]
    /// The last result per kata (test method name): `passed`, `failed`, `skipped` or `not run`.
    public var katas: [String: KataState]
    /// True once a full `lessons check` run passed every kata; it opens `lessons solution`. It stays true: a later
    /// failing run, a reset or an experiment does not take a finished lesson away.
    public var passed: Bool
    /// When the katas were last checked (ISO 8601), for the learner's information.
    public var lastChecked: String?

    public init(read: Bool = false, hintsRevealed: [String: Int] = [:], katas: [String: KataState] = [:], passed: Bool = false,
                lastChecked: String? = nil) {
        self.read = read
        self.hintsRevealed = hintsRevealed
        self.katas = katas
        self.passed = passed
        self.lastChecked = lastChecked
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        read = try container.decodeIfPresent(Bool.self, forKey: .read) ?? false
        // Files written before hints were per kata hold one number here; such a count no longer says which
        // kata's hints were seen, so it starts again rather than making the whole file unreadable.
        hintsRevealed = ((try? container.decodeIfPresent([String: Int].self, forKey: .hintsRevealed)) ?? [:])
            .mapValues { max(0, $0) }
        // A word this version does not know (a hand edit, a newer format) is dropped, not fatal: the kata reads
        // as never checked, and the next `lessons check` writes it again.
        katas = (try container.decodeIfPresent([String: String].self, forKey: .katas) ?? [:])
            .compactMapValues(KataState.init(rawValue:))
        passed = try container.decodeIfPresent(Bool.self, forKey: .passed) ?? false
        lastChecked = try container.decodeIfPresent(String.self, forKey: .lastChecked)
    }

    /// Records a `lessons check` run: each kata's state, and whether the lesson is done. Only a run of the whole
    /// suite in which every kata passed marks it done, and once done it stays done.
    public mutating func record(states: [String: KataState], wholeSuite: Bool, at stamp: String) {
        katas.merge(states) { _, new in new }
        if wholeSuite, !states.isEmpty, states.values.allSatisfy({ $0 == .passed }) { passed = true }
        lastChecked = stamp
    }
}
