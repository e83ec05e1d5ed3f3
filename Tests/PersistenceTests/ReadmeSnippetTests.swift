import Foundation
import XCTest

/// The README's "Persistence in one screen" is the first code a reader copies: it must compile against the library
/// as it is, in Swift 6 mode. So must the typealias file a port of Core Data code starts from, which the README and
/// the documentation's porting article both show, and CoreDataPortingTests runs.
final class ReadmeSnippetTests: PersistenceTestCase {
    private func repositoryFile(_ path: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../\(path)").standardizedFileURL
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The first Swift block of `text` that starts with `#if canImport(CoreData)`.
    private func typealiasFile(in text: String, of name: String) throws -> String {
        let open = try XCTUnwrap(text.range(of: "```swift\n#if canImport(CoreData)\n"), "\(name) shows no typealias file")
        let close = try XCTUnwrap(text[open.upperBound...].range(of: "\n```"), "\(name): the block is not closed")
        return "#if canImport(CoreData)\n" + String(text[open.upperBound..<close.lowerBound]) + "\n"
    }

    /// The `typealias` lines of `text`, without access modifiers.
    private func aliases(in text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasPrefix("private ") ? String($0.dropFirst("private ".count)) : $0 }
            .filter { $0.hasPrefix("typealias NS") }
    }

    func testThePortingTypealiasFileCompilesAndIsTheSameEverywhere() throws {
        let readme = try typealiasFile(in: try repositoryFile("README.md"), of: "README.md")
        let article = try typealiasFile(in: try repositoryFile("Sources/Persistence/Persistence.docc/PortingCoreDataCode.md"),
                                        of: "the porting article")
        XCTAssertEqual(readme, article, "the README and the porting article show different typealias files")
        XCTAssertEqual(aliases(in: try repositoryFile("Tests/PersistenceTests/CoreDataPortingTests.swift")), aliases(in: readme),
                       "CoreDataPortingTests declares another list than the README's")
        // The file as an app's framework has it (public), and code that names what objc.io's Moody names.
        let source = readme.replacingOccurrences(of: "\ntypealias ", with: "\npublic typealias ") + """
            final class Region: NSManagedObject {}
            func purge(_ context: NSManagedObjectContext) throws {
                let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Region")
                request.predicate = NSPredicate(format: "%K < %@", "markedForDeletionDate", Date() as NSDate)
                let delete = NSBatchDeleteRequest(fetchRequest: request)
                delete.resultType = .resultTypeStatusOnly
                _ = try context.execute(delete)
            }
            final class RegionMergePolicy: NSMergePolicy, @unchecked Sendable {
                override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
                    try super.resolve(optimisticLockingConflicts: list)
                }
                override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
                    try super.resolve(constraintConflicts: list)
                }
            }

            """
        let result = try typecheck(source)
        XCTAssertEqual(result.status, 0, "the typealias file does not compile:\n\(result.output)")
    }

    func testThePersistenceInOneScreenExampleCompiles() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardizedFileURL
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "## Persistence in one screen"), "the README has no such section")
        let rest = text[section.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "```swift\n"), "the section has no Swift block")
        let close = try XCTUnwrap(rest[open.upperBound...].range(of: "\n```"), "the Swift block is not closed")
        let code = String(rest[open.upperBound..<close.lowerBound])
        XCTAssertTrue(code.contains("import Persistence"))
        let result = try typecheck(code + "\n")
        XCTAssertEqual(result.status, 0, "the README's example does not compile:\n\(result.output)")
    }
}
