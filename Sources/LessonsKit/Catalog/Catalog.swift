import Foundation

/// The manifest read from a workspace, with lookups that answer a person's input with clear errors.
public struct Catalog: Sendable {
    public var workspace: Workspace
    public var manifest: Manifest

    public var lessons: [Lesson] { manifest.lessons }

    public init(workspace: Workspace, manifest: Manifest) {
        self.workspace = workspace
        self.manifest = manifest
    }

    /// Reads and checks `manifest.json` in the workspace's lessons folder.
    public static func load(_ workspace: Workspace) throws(LessonsError) -> Catalog {
        let file = workspace.manifestFile
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw LessonsError(.manifest, "cannot read the lesson manifest (\(error.localizedDescription))",
                               file: workspace.displayPath(file))
        }
        let manifest = try Manifest.decode(data, file: workspace.displayPath(file))
        return Catalog(workspace: workspace, manifest: manifest)
    }

    /// Finds a lesson by number (`4`, `04`), slug (`contexts-and-crud`) or folder name (`04-contexts-and-crud`).
    public func lesson(named name: String) throws(LessonsError) -> Lesson {
        let key = name.trimmingWhitespace.lowercased()
        if let number = Int(key), let lesson = lessons.first(where: { $0.number == number }) { return lesson }
        if let lesson = lessons.first(where: { $0.slug == key || $0.folderName == key }) { return lesson }
        throw LessonsError(.unknownChoice, "unknown lesson \"\(name)\". Valid lessons:\n" + validLessonList)
    }

    /// `  1  testing       Testing Core Data code…` — one line per lesson, for error messages.
    public var validLessonList: String {
        let slugWidth = lessons.map(\.slug.count).max() ?? 0
        return lessons.map { lesson in
            let number = String(repeating: " ", count: lesson.number < 10 ? 1 : 0) + "\(lesson.number)"
            let slug = lesson.slug.padding(toLength: slugWidth, withPad: " ", startingAt: 0)
            return "  \(number)  \(slug)  \(lesson.title.text(in: .en))"
        }.joined(separator: "\n")
    }

    public func document(id: String) -> SourceDocument? {
        manifest.documents.first { $0.id == id }
    }

    /// The lesson text file in `language`.
    public func textFile(of lesson: Lesson, language: Language) -> URL {
        workspace.lessonsDirectory.appendingPathComponent(lesson.textPath(for: language))
    }

    /// The languages whose text file exists, in the manifest's order.
    public func writtenLanguages(of lesson: Lesson) -> [Language] {
        lesson.languages.filter { FileManager.default.fileExists(atPath: textFile(of: lesson, language: $0).path) }
    }

    /// "Based on: Practical Core Data — Unit testing; …" parts, one per source.
    public func sourceDescriptions(of lesson: Lesson) -> [String] {
        lesson.sources.map { source in
            let title = document(id: source.document)?.title ?? source.document
            return "\(title) (\(source.document)): " + source.sections.joined(separator: "; ")
        }
    }
}
