import Foundation

/// A lesson text read, parsed and checked: includes resolved, links and images verified.
public struct LoadedLesson: Sendable {
    public var lesson: Lesson
    public var language: Language
    /// The text file, relative to the package root (for messages).
    public var file: String
    public var document: MarkdownDocument
    /// Local images by the destination written in the text, resolved to files.
    public var images: [String: URL]
}
