/// The one error type of the lessons layer: what went wrong and, when it comes from a file, where.
///
/// Its description is what the command prints, so it names the file and line (relative to the package root)
/// and, for a bad choice, the valid ones.
public struct LessonsError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// `lessons/manifest.json` is missing, unreadable or inconsistent.
        case manifest
        /// Markdown could not be parsed at all (cmark ran out of memory).
        case markdown
        /// A lesson text refers to something that is not there: an included file or region, a lesson, an image.
        case reference
        /// The user named a lesson, kata or option value that does not exist.
        case unknownChoice
        /// Part of the workbook (a lesson text, katas, starters, labs) is not written yet.
        case notThereYet
        /// The learner's own state forbids the action (e.g. a solution before the katas pass).
        case notAllowed
        /// A file could not be read or written, or a program could not be started.
        case io
    }

    public var kind: Kind
    public var message: String
    /// A path relative to the package root when the problem is in a file.
    public var file: String?
    public var line: Int?

    public init(_ kind: Kind, _ message: String, file: String? = nil, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line): \(message)"
        case let (file?, nil): return "\(file): \(message)"
        default: return message
        }
    }
}
