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
    /// How many of the lesson's hints have been revealed.
    public var hintsRevealed: Int
    /// The last result per kata (test method name): `passed`, `failed`, `skipped` or `not run`.
    public var katas: [String: String]
    /// True once a full `lessons check` run passed every kata; it opens `lessons solution`.
    public var passed: Bool
    /// When the katas were last checked (ISO 8601), for the learner's information.
    public var lastChecked: String?

    public init(read: Bool = false, hintsRevealed: Int = 0, katas: [String: String] = [:], passed: Bool = false,
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
        hintsRevealed = max(0, try container.decodeIfPresent(Int.self, forKey: .hintsRevealed) ?? 0)
        katas = try container.decodeIfPresent([String: String].self, forKey: .katas) ?? [:]
        passed = try container.decodeIfPresent(Bool.self, forKey: .passed) ?? false
        lastChecked = try container.decodeIfPresent(String.self, forKey: .lastChecked)
    }
}
