/// What `lessons hint` shows: the hints of one kata, revealed one more at a time.
///
/// `lessons hint N K` asks about kata K; `lessons hint N` about the first kata that did not pass at the last
/// check (the first kata when nothing was checked yet), since that is the one the learner is stuck on.
public struct KataHints: Sendable, Equatable {
    /// The kata's test method name.
    public var kata: String
    /// Its number in the suite, counting from 1.
    public var number: Int
    /// All of its hints.
    public var hints: [LocalizedText]
    /// How many had been revealed before this request.
    public var before: Int

    /// How many are revealed now: one more than before, until none is left.
    public var shown: Int { min(before + 1, hints.count) }
    /// Every hint had already been revealed.
    public var exhausted: Bool { before >= hints.count }

    /// The hints for `kata` (or for the kata needing help), given what `progress` says was revealed.
    public init(lesson: Lesson, suite: KataSuite, kata: String, progress: LessonProgress) {
        self.kata = kata
        number = (suite.katas.firstIndex(of: kata) ?? 0) + 1
        hints = lesson.katas.hints(for: kata)
        before = min(progress.hintsRevealed[kata] ?? 0, hints.count)
    }

    /// The first kata, in file order, whose last recorded state is not `passed`; nil when every kata passed at
    /// the last check.
    public static func kataNeedingHelp(in suite: KataSuite, progress: LessonProgress) -> String? {
        suite.katas.first { progress.katas[$0] != .passed }
    }
}
