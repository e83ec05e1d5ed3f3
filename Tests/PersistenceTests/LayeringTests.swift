import Foundation
import XCTest

/// The layers of Persistence, checked on its source files so that they stay apart: the store works on plain values
/// and never names a managed object, only SQLite/ talks to SQLite's C API, and contexts reach the store through its
/// calls, never through its connection.
final class LayeringTests: XCTestCase {
    /// Sources/Persistence, found from this file (Tests/PersistenceTests/LayeringTests.swift).
    private static let persistence = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Persistence")

    /// The Swift files under `folder` of Sources/Persistence ("" for all), by path relative to it, with their text.
    private func sources(in folder: String) throws -> [(path: String, text: String)] {
        let root = Self.persistence.appendingPathComponent(folder)
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(Self.persistence.path.count + 1))
            files.append((relative, try String(contentsOf: url, encoding: .utf8)))
        }
        // A folder that moved or emptied would make every rule below pass without checking anything.
        XCTAssertFalse(files.isEmpty, "no Swift files under Sources/Persistence/\(folder)")
        return files.sorted { $0.0 < $1.0 }
    }

    /// The lines of `text` matching `pattern`, as "path:line: text".
    private static func offending(_ pattern: String, in files: [(path: String, text: String)]) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        var found: [String] = []
        for file in files {
            for (number, line) in file.text.components(separatedBy: "\n").enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                if regex.firstMatch(in: line, range: range) != nil {
                    found.append("\(file.path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    /// `ManagedObject` as a word of its own: `ManagedObjectID`, `ManagedObjectModel` and `ManagedObjectContext` are
    /// other words.
    private static let managedObject = #"\bManagedObject\b"#
    private static let importsCSQLite = #"^\s*(@\w+\s+)*import\s+(\w+\s+)?CSQLite\b"#
    private static let connection = #"\bconnection\b"#

    func testTheRulesRecogniseWhatTheyForbid() {
        let sample = [(path: "Sample.swift", text: """
            let id: ManagedObjectID
            let model: ManagedObjectModel
            func f(_ object: ManagedObject) {}
            let types: [ManagedObject.Type]
            @_implementationOnly import CSQLite
            import CSQLiteExtras
            try store.connection.inTransaction {}
            let connections = 2
            """)]
        XCTAssertEqual(Self.offending(Self.managedObject, in: sample).map { $0.components(separatedBy: ":")[1] }, ["3", "4"])
        XCTAssertEqual(Self.offending(Self.importsCSQLite, in: sample).map { $0.components(separatedBy: ":")[1] }, ["5"])
        XCTAssertEqual(Self.offending(Self.connection, in: sample).map { $0.components(separatedBy: ":")[1] }, ["7"])
    }

    /// The store reads and writes plain values (rows, keys, packed rows): it never reads or changes an object of a
    /// context, so nothing there names one.
    func testNothingInStoreNamesManagedObject() throws {
        let found = Self.offending(Self.managedObject, in: try sources(in: "Store"))
        XCTAssertEqual(found, [], "Store/ works on plain values; move what needs objects to Context/, Merging/ or Stack/")
    }

    func testOnlySQLiteImportsCSQLite() throws {
        let found = Self.offending(Self.importsCSQLite, in: try sources(in: "").filter { !$0.path.hasPrefix("SQLite/") })
        XCTAssertEqual(found, [], "only Sources/Persistence/SQLite/ talks to SQLite's C API")
    }

    /// A context reaches the store through the store's own calls (a save request, rows, keys), never its connection;
    /// the registry and the objects' storage, which serve the context, neither.
    func testNothingInContextNamesTheConnection() throws {
        for folder in ["Context", "Registry", "Storage"] {
            let found = Self.offending(Self.connection, in: try sources(in: folder))
            XCTAssertEqual(found, [], "\(folder)/ goes through the store's calls, not its SQLite connection")
        }
    }

    /// A folder's README lists its rules, each with the tests that guard it (`RegistryTests.testSomething`): every
    /// test named must exist, or a renamed test would leave a rule guarded on paper only.
    func testEveryTestAFoldersREADMENamesExists() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.persistence.path)
        let tests = Self.persistence.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/PersistenceTests")
        var named = 0
        for folder in folders.sorted() {
            let readme = Self.persistence.appendingPathComponent(folder).appendingPathComponent("README.md")
            guard let text = try? String(contentsOf: readme, encoding: .utf8) else { continue }
            let pattern = try NSRegularExpression(pattern: #"`(\w+Tests)\.(test\w+)`"#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let suite = String(text[Range(match.range(at: 1), in: text)!])
                let test = String(text[Range(match.range(at: 2), in: text)!])
                let source = try? String(contentsOf: tests.appendingPathComponent(suite + ".swift"), encoding: .utf8)
                XCTAssertTrue(source?.contains("func \(test)(") == true, "\(folder)/README.md names \(suite).\(test), which does not exist")
                named += 1
            }
        }
        XCTAssertGreaterThan(named, 20, "the READMEs of Storage/ and Registry/ name their rules' tests")
    }
}
