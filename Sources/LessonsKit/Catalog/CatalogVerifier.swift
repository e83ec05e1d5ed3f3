/// The maintainer's check of the lesson side: every written lesson text loads (includes, links, images),
/// and which parts of the kata machinery exist for each lesson.
public struct CatalogVerifier: Sendable {
    public struct LessonResult: Equatable, Sendable {
        public var lesson: Int
        public var language: Language
        /// nil when the text loads; the error otherwise.
        public var problem: LessonsError?
        public var written: Bool
    }

    /// How many lessons have each part of the kata machinery on disk.
    public struct Machinery: Equatable, Sendable {
        public var total = 0
        public var katas = 0
        public var starters = 0
        public var solutions = 0
        public var examples = 0

        public var complete: Bool {
            katas == total && starters == total && solutions == total && examples == total
        }
    }

    public var catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    public func lessonResults() -> [LessonResult] {
        let loader = LessonLoader(catalog: catalog)
        return catalog.lessons.flatMap { lesson in
            lesson.languages.map { language in
                let written = catalog.writtenLanguages(of: lesson).contains(language)
                var problem: LessonsError?
                if written {
                    do throws(LessonsError) { _ = try loader.load(lesson, language: language) } catch { problem = error }
                }
                return LessonResult(lesson: lesson.number, language: language, problem: problem, written: written)
            }
        }
    }

    public func machinery() -> Machinery {
        let workspace = catalog.workspace
        var result = Machinery(total: catalog.lessons.count)
        for lesson in catalog.lessons {
            if workspace.exists(lesson.katas.file) { result.katas += 1 }
            if lesson.starter.allSatisfy(workspace.exists) { result.starters += 1 }
            if lesson.solution.allSatisfy(workspace.exists) { result.solutions += 1 }
            if workspace.exists(lesson.example.path) { result.examples += 1 }
        }
        return result
    }

    /// The report and whether everything checked out.
    public func report() -> (text: String, ok: Bool) {
        var lines = ["Manifest: \(catalog.workspace.displayPath(catalog.workspace.manifestFile)), "
            + "\(catalog.lessons.count) lessons — ok", "", "Lesson texts:"]
        let results = lessonResults()
        for result in results {
            let lesson = catalog.lessons[result.lesson - 1]
            let label = "\(result.lesson) \(lesson.slug) (\(result.language.rawValue))"
            if let problem = result.problem {
                lines.append("  ✗ \(label): \(problem)")
            } else if result.written {
                lines.append("  ✓ \(label)")
            } else {
                lines.append("  · \(label): not written yet")
            }
        }
        let broken = results.filter { $0.problem != nil }.count
        let written = results.filter(\.written).count
        lines.append("  \(written) of \(results.count) texts written, \(broken) with problems.")
        let machinery = machinery()
        lines.append("")
        lines.append("Kata machinery (of \(machinery.total) lessons): \(machinery.katas) kata suites, "
            + "\(machinery.starters) starters, \(machinery.solutions) solutions, \(machinery.examples) examples exist.")
        if !machinery.complete {
            lines.append("  Not there yet: the check that every kata fails against its starter and passes against "
                + "its reference solution needs all four for every lesson.")
        }
        let ok = broken == 0 && machinery.complete
        lines.append("")
        lines.append(ok ? "verify: everything checked passes." : "verify: incomplete or failing (see above).")
        return (lines.joined(separator: "\n") + "\n", ok)
    }
}
