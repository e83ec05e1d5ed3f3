/// What a starter throws until the learner writes it. It names the lesson, the file and the function, so a kata
/// that runs into it can say exactly where to work instead of failing with a puzzle.
///
/// ```swift
/// public func createBook(title: String) throws -> Book {
///     throw KataNotDone(lesson: 1)      // replace this line with your code
/// }
/// ```
public struct KataNotDone: Error, Equatable, CustomStringConvertible {
    /// The lesson whose kata needs this function.
    public let lesson: Int
    /// The starter file, relative to the package root: `Sources/Workbook/01-testing/BookManager.swift`.
    public let file: String
    /// The function to write, as Swift spells it: `createBook(title:author:)`.
    public let function: String

    /// The file and function default to where the error is made, which is where the learner has to work.
    public init(lesson: Int, filePath: String = #filePath, function: String = #function) {
        self.lesson = lesson
        self.file = Self.packageRelative(filePath)
        self.function = function
    }

    public var description: String {
        "\(function) is not written yet (\(file), lesson \(lesson))"
    }

    /// `…/Sources/Workbook/01-testing/BookManager.swift` → `Sources/Workbook/01-testing/BookManager.swift`: the
    /// package may be cloned anywhere, messages should not depend on where.
    static func packageRelative(_ path: String) -> String {
        guard let range = path.range(of: "/Sources/", options: .backwards) else { return path }
        return String(path[path.index(after: range.lowerBound)...])
    }
}
