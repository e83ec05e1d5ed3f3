/// Where the learner stands: each lesson's status and the next step, as `lessons list` prints it.
public struct LessonOverview: Sendable {
    public enum Status: Equatable, Sendable {
        /// No text exists yet in any language.
        case coming
        case new
        case read
        /// Katas were checked and some pass.
        case katas(passed: Int, total: Int)
        case done
    }

    public struct Entry: Sendable {
        public var lesson: Lesson
        public var status: Status
        public var writtenLanguages: [Language]
        public var katasExist: Bool
    }

    public var title: String
    public var entries: [Entry]

    public init(catalog: Catalog, progress: LearnerProgress) {
        title = catalog.manifest.title
        entries = catalog.lessons.map { lesson in
            let written = catalog.writtenLanguages(of: lesson)
            let state = progress[lesson]
            let status: Status
            if state.passed {
                status = .done
            } else if !state.katas.isEmpty {
                status = .katas(passed: state.katas.values.filter { $0 == .passed }.count, total: state.katas.count)
            } else if written.isEmpty {
                status = .coming
            } else {
                status = state.read ? .read : .new
            }
            return Entry(lesson: lesson, status: status, writtenLanguages: written,
                         katasExist: catalog.workspace.exists(lesson.katas.file))
        }
    }

    public var doneCount: Int { entries.filter { $0.status == .done }.count }

    /// The next thing to do, as one or two sentences with the command to type.
    public var nextStep: String {
        guard let entry = entries.first(where: { $0.status != .done }) else {
            return "All \(entries.count) lessons are done. Print the handouts for someone else: swift run lessons html"
        }
        let lesson = entry.lesson
        let name = "lesson \(lesson.number), \(lesson.title.text(in: lesson.languages[0]))"
        switch entry.status {
        case .coming:
            let katas = entry.katasExist ? "; its katas are ready: swift run lessons check \(lesson.number)"
                : "; its katas are not written yet either."
            return "Next: \(name) — its text is not written yet\(katas)"
        case .new:
            return "Next: read \(name): swift run lessons show \(lesson.number)"
        case .read, .katas:
            let title = lesson.title.text(in: lesson.languages[0])
            return entry.katasExist
                ? "Next: make lesson \(lesson.number)'s katas pass (\(title)): swift run lessons check \(lesson.number)"
                : "Next: \(name) — its katas are not written yet."
        case .done:
            return ""
        }
    }

    public func render(language: Language, colors: Bool) -> String {
        func paint(_ text: String, _ style: TextStyle) -> String { StyledText(text, style).rendered(colors: colors) }
        var lines = [paint("\(title) — \(entries.count) lessons, \(doneCount) done", TextStyle(bold: true)), ""]
        for entry in entries {
            let number = (entry.lesson.number < 10 ? "   " : "  ") + "\(entry.lesson.number)"
            let (word, style): (String, TextStyle)
            switch entry.status {
            case .coming: (word, style) = ("coming", TextStyle(dim: true))
            case .new: (word, style) = ("new", TextStyle(color: .blue))
            case .read: (word, style) = ("read", TextStyle(color: .blue))
            case .katas(let passed, let total): (word, style) = ("\(passed)/\(total) katas", TextStyle(color: .yellow))
            case .done: (word, style) = ("done ✓", TextStyle(color: .green))
            }
            let padded = word.padding(toLength: 11, withPad: " ", startingAt: 0)
            var title = entry.lesson.title.text(in: entry.lesson.bestLanguage(for: language))
            if entry.lesson.languages.count > 1 {
                title += " [" + entry.lesson.languages.map(\.rawValue).joined(separator: ", ") + "]"
            }
            lines.append("\(number)  \(paint(padded, style)) \(title)")
        }
        lines.append("")
        lines.append(nextStep)
        return lines.joined(separator: "\n") + "\n"
    }
}
