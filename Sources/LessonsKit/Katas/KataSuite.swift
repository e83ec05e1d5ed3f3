import Foundation

/// A lesson's kata suite as written in its file: the XCTestCase name and its test methods in file order.
public struct KataSuite: Equatable, Sendable {
    public var name: String
    public var file: String
    /// Test method names (`test01_insertsItem`…), in the order they appear in the file.
    public var katas: [String]

    /// Reads the test methods of `katas.file`; a missing file is `.notThereYet`.
    public static func load(_ lesson: Lesson, workspace: Workspace) throws(LessonsError) -> KataSuite {
        guard let url = workspace.resolve(lesson.katas.file),
              let source = try? String(contentsOf: url, encoding: .utf8) else {
            throw LessonsError(.notThereYet, "lesson \(lesson.number)'s katas are not written yet: "
                + "\(lesson.katas.file) (suite \(lesson.katas.suite)) does not exist")
        }
        return KataSuite(name: lesson.katas.suite, file: lesson.katas.file, katas: testNames(in: source))
    }

    /// Names of `func test…()` declarations, the ones XCTest runs.
    public static func testNames(in source: String) -> [String] {
        var names: [String] = []
        for line in source.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" })
            guard let funcIndex = words.firstIndex(of: "func"), funcIndex + 1 < words.count else { continue }
            let name = String(words[funcIndex + 1])
            if name.hasPrefix("test"), !line.trimmingWhitespace.hasPrefix("//"),
               line.contains("\(name)()") || line.contains("\(name)() ") {
                names.append(name)
            }
        }
        return names
    }

    /// Finds a kata by full name, by number (`2` is the second kata) or by a unique prefix.
    public func kata(named name: String) throws(LessonsError) -> String {
        if katas.contains(name) { return name }
        if let number = Int(name), katas.indices.contains(number - 1) { return katas[number - 1] }
        let matches = katas.filter { $0.hasPrefix(name) || $0.hasPrefix("test" + name) }
        if matches.count == 1 { return matches[0] }
        let list = katas.enumerated().map { "  \($0.offset + 1)  \($0.element)" }.joined(separator: "\n")
        throw LessonsError(.unknownChoice, "unknown kata \"\(name)\" in \(self.name). Valid katas:\n" + list)
    }
}
