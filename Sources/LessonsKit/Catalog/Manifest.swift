import Foundation

/// The contents of `lessons/manifest.json`: the lessons in order and the documents they draw on.
public struct Manifest: Equatable, Sendable, Decodable {
    /// The format version; this code reads format 1.
    public var format: Int
    public var title: String
    public var documents: [SourceDocument]
    public var lessons: [Lesson]

    /// Decodes and checks a manifest. `file` labels errors (a path relative to the package root).
    public static func decode(_ data: Data, file: String) throws(LessonsError) -> Manifest {
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch let error as DecodingError {
            throw LessonsError(.manifest, describe(error), file: file)
        } catch {
            throw LessonsError(.manifest, "not valid JSON: \(error)", file: file)
        }
        try manifest.check(file: file)
        return manifest
    }

    private func check(file: String) throws(LessonsError) {
        func fail(_ message: String) -> LessonsError { LessonsError(.manifest, message, file: file) }
        guard format == 1 else { throw fail("format \(format) is not supported; this version reads format 1") }
        guard !lessons.isEmpty else { throw fail("the manifest lists no lessons") }
        let documentIDs = Set(documents.map(\.id))
        var slugs: Set<String> = []
        var decoyIDs: Set<String> = []
        for (index, lesson) in lessons.enumerated() {
            let label = "lesson \(lesson.number) (\(lesson.slug))"
            guard lesson.number == index + 1 else {
                throw fail("\(label) is entry \(index + 1): lessons are numbered 1, 2, 3… in the order listed")
            }
            guard Self.isSlug(lesson.slug) else {
                throw fail("\(label): a slug is lower-case letters, digits and '-'")
            }
            guard slugs.insert(lesson.slug).inserted else { throw fail("\(label): slug used twice") }
            guard !lesson.languages.isEmpty, Set(lesson.languages).count == lesson.languages.count else {
                throw fail("\(label): list each of its languages once (en, ru)")
            }
            for language in lesson.languages where lesson.title.texts[language] == nil {
                throw fail("\(label): no title in \(language.rawValue), which it lists among its languages")
            }
            if lesson.lessonHints != nil {
                throw fail("\(label): \"hints\" belong to each kata now: move them into \"katas\": "
                    + "{ \"hints\": { \"test01_…\": [\"first\", \"second\"] } }")
            }
            for (kata, reason) in lesson.katas.exempt
            where reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw fail("\(label): kata \(kata) is exempt from decoy coverage without a reason; say why")
            }
            for decoy in lesson.decoys?.cases ?? [] {
                guard Self.isSlug(decoy.id) else {
                    throw fail("\(label): decoy id \"\(decoy.id)\" must be lower-case letters, digits and '-'")
                }
                if let reason = decoy.rejectedWith, reason.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw fail("\(label): decoy \"\(decoy.id)\" has an empty \"rejectedWith\"; name the error "
                        + "that must reject it (words of its message, or its diagnostic group)")
                }
                guard decoyIDs.insert(decoy.id).inserted else {
                    throw fail("\(label): decoy id \"\(decoy.id)\" is used twice; ids are unique in the manifest")
                }
            }
            for source in lesson.sources where !documentIDs.contains(source.document) {
                throw fail("\(label): unknown source document \"\(source.document)\"; "
                    + "valid: \(documents.map(\.id).joined(separator: ", "))")
            }
        }
    }

    /// Lower-case ASCII letters, digits and `-`, not empty.
    static func isSlug(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let joined = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return "missing \"\(key.stringValue)\"" + (at.isEmpty ? "" : " in \(at)")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let at = path(context.codingPath)
            return (at.isEmpty ? "" : "\(at): ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}
