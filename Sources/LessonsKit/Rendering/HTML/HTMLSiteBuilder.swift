import Foundation

/// Writes the handouts: `index.html`, a page per lesson and language, `all.html` for printing, a page per kata
/// and starter file, and the lessons' images. Every link is relative, so the folder works from `file://`.
///
/// The reference solutions stay out unless a teacher asks for them (`withSolutions`): then each solution file gets
/// a page, each lesson's footer links them, and `all.html` ends with an appendix of them.
public struct HTMLSiteBuilder: Sendable {
    /// What was written, for the command's summary.
    public struct Report: Equatable, Sendable {
        /// Paths relative to the output folder, in writing order.
        public var files: [String]
        public var lessonPages: Int
        /// Lessons listed as coming because no text exists yet.
        public var comingLessons: [Int]
    }

    public var catalog: Catalog
    /// Whether to add the reference solutions (a teacher's copy); a learner's handouts never show them.
    public var withSolutions: Bool

    public init(catalog: Catalog, withSolutions: Bool = false) {
        self.catalog = catalog
        self.withSolutions = withSolutions
    }

    var lessons: [Lesson] { catalog.lessons }

    /// Builds the site in memory (page path → contents) and copies nothing; `write` puts it on disk.
    public func pages(progress: (Int, Int) -> Void = { _, _ in }) throws(LessonsError) -> [(path: String, content: Content)] {
        let loader = LessonLoader(catalog: catalog)
        var loaded: [LoadedLesson] = []
        let written = lessons.flatMap { lesson in catalog.writtenLanguages(of: lesson).map { (lesson, $0) } }
        let total = written.count + 2
        for (index, (lesson, language)) in written.enumerated() {
            loaded.append(try loader.load(lesson, language: language))
            progress(index + 1, total)
        }
        var output: [(path: String, content: Content)] = []
        let codeFiles = self.codeFiles()
        for page in loaded {
            output.append((pageName(page.lesson, page.language), .text(lessonPage(page, all: loaded, codeFiles: codeFiles))))
            for (source, file) in page.images.sorted(by: { $0.key < $1.key }) {
                output.append((mediaPath(page.lesson, source), .copy(file)))
            }
        }
        output.append(("all.html", .text(printPage(loaded, codeFiles: codeFiles))))
        progress(written.count + 1, total)
        output.append(("index.html", .text(indexPage(loaded))))
        for file in codeFiles {
            output.append((file.page, .text(codePage(file, all: loaded))))
        }
        progress(total, total)
        return output
    }

    /// A page's contents: text to write, or a file to copy.
    public enum Content: Sendable, Equatable {
        case text(String)
        case copy(URL)
    }

    /// Writes the site into `folder` (created if needed). Files there that the site does not write are left alone.
    public func write(into folder: URL, progress: (Int, Int) -> Void = { _, _ in }) throws(LessonsError) -> Report {
        let site = try pages(progress: progress)
        let fileManager = FileManager.default
        try Self.prepareFolder(folder)
        for (path, content) in site {
            let target = folder.appendingPathComponent(path)
            do {
                try Self.prepareFolder(target.deletingLastPathComponent())
                switch content {
                case .text(let text):
                    try Data(text.utf8).write(to: target, options: .atomic)
                case .copy(let source):
                    if fileManager.fileExists(atPath: target.path) { try fileManager.removeItem(at: target) }
                    try fileManager.copyItem(at: source, to: target)
                }
            } catch let error as LessonsError {
                throw error
            } catch {
                throw LessonsError(.io, "cannot write the handouts into \(folder.path): "
                    + Self.reason(writing: target, error))
            }
        }
        let lessonPages = site.filter { $0.path.hasSuffix(".html") && $0.path.first?.isNumber == true }.count
        let coming = lessons.filter { catalog.writtenLanguages(of: $0).isEmpty }.map(\.number)
        return Report(files: site.map(\.path), lessonPages: lessonPages, comingLessons: coming)
    }

    // MARK: Names

    /// `05-saving-safely.html` for a lesson's original language, `11-merge-rules.en.html` for the others.
    public func pageName(_ lesson: Lesson, _ language: Language) -> String {
        language == lesson.languages[0] ? "\(lesson.folderName).html" : "\(lesson.folderName).\(language.rawValue).html"
    }

    func mediaPath(_ lesson: Lesson, _ source: String) -> String {
        "media/\(lesson.folderName)/\(source)"
    }

    func sectionID(_ lesson: Lesson, _ language: Language) -> String {
        let base = "lesson-" + lesson.folderName.prefix(2)
        return language == lesson.languages[0] ? base : base + "-" + language.rawValue
    }

    func idPrefix(_ lesson: Lesson, _ language: Language) -> String {
        "l" + lesson.folderName.prefix(2) + (language == lesson.languages[0] ? "" : "-" + language.rawValue) + "-"
    }

    /// The page in which to show lesson `target` to someone reading in `language`, if it is written.
    func page(for target: Lesson, language: Language, among loaded: [LoadedLesson]) -> LoadedLesson? {
        let pages = loaded.filter { $0.lesson.number == target.number }
        return pages.first { $0.language == language } ?? pages.first { $0.language == target.languages[0] }
            ?? pages.first
    }

    func linkHref(from page: LoadedLesson, all loaded: [LoadedLesson], printPage: Bool)
        -> @Sendable (String) -> String? {
        let catalog = self.catalog
        var targets: [String: String] = [:]
        // Precompute where each lesson link goes, so the closure captures only values.
        for lesson in lessons {
            let href: String
            if let target = self.page(for: lesson, language: page.language, among: loaded) {
                href = printPage ? "#" + sectionID(target.lesson, target.language) : pageName(target.lesson, target.language)
            } else {
                href = "index.html#" + sectionID(lesson, lesson.languages[0])
            }
            targets[String(lesson.number)] = href
        }
        let prefixes = Dictionary(uniqueKeysWithValues: loaded.map {
            ("\($0.lesson.number)/\($0.language.rawValue)", idPrefix($0.lesson, $0.language))
        })
        let ownPrefix = printPage ? idPrefix(page.lesson, page.language) : ""
        let language = page.language
        let lessonTargets = targets
        return { destination in
            switch LinkTarget(destination) {
            case .external(let url):
                return url
            case .anchor(let anchor):
                return "#" + ownPrefix + anchor
            case .lesson(let name, let anchor):
                guard let lesson = try? catalog.lesson(named: name), let href = lessonTargets[String(lesson.number)] else {
                    return nil
                }
                // A lesson that is not written yet has no headings: its link goes to its entry on the index.
                guard let anchor, !href.hasPrefix("index.html") else { return href }
                if printPage {
                    let key = "\(lesson.number)/\(lesson.bestLanguage(for: language).rawValue)"
                    return "#" + (prefixes[key] ?? "") + anchor
                }
                return href.contains("#") ? href : href + "#" + anchor
            case .relative, .unsupported:
                return nil
            }
        }
    }
}
