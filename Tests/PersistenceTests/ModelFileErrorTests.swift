import Foundation
@_spi(TestHarness) @_spi(ModelLoading) import Persistence
import XCTest

/// Model files that are wrong, or use what this library cannot represent yet: each is an error that names the
/// file, the line, the entity and the property — never a crash, never a model loaded with a part missing.
final class ModelFileErrorTests: PersistenceTestCase {
    /// Reads `path` from Fixtures/Models and checks the error's code, its message and what it points at.
    @discardableResult
    private func assertRejected(_ path: String, _ code: PersistenceError.Code = .coreData, says fragments: [String],
                                entity: String? = nil, key: String? = nil,
                                file: StaticString = #filePath, line: UInt = #line) throws -> PersistenceError? {
        let url = try ModelFixtures.url(path)
        let error = assertPersistenceError(code, file: file, line: line) { _ = try ManagedObjectModel(contentsOf: url, managedObjectClasses: []) }
        guard let error else { return nil }
        for fragment in fragments {
            XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'", file: file, line: line)
        }
        if let entity { XCTAssertEqual(error.entityName, entity, file: file, line: line) }
        if let key { XCTAssertEqual(error.key, key, file: file, line: line) }
        XCTAssertNotNil(error.url, "the error names the file", file: file, line: line)
        return error
    }

    func testMalformedXMLNamesTheFileAndLine() throws {
        try assertRejected("Invalid/Malformed.xml", .fileReadCorruptFile, says: [
            "Invalid/Malformed.xml is not well-formed XML (line 6", "a closing tag does not match the element it closes",
            "<attribute> opened on line 4 is still open",
        ])
    }

    func testAFileThatIsNotAModel() throws {
        try assertRejected("Invalid/NotAModel.xml", says: ["the root element is <plist>, not <model>"])
    }

    func testAnUnknownDocumentVersion() throws {
        try assertRejected("Invalid/UnknownVersion.xml", says: ["UnknownVersion.xml, line 2", "unknown model document version '3.0'", "knows 1.0"])
    }

    func testAnUnknownAttributeType() throws {
        try assertRejected("Invalid/UnknownAttributeType.xml",
                           says: ["UnknownAttributeType.xml, line 5", "entity 'Note', attribute 'priority'", "unknown attributeType 'Integer 128'", "Integer 64"],
                           entity: "Note", key: "priority")
    }

    func testARelationshipToAMissingEntity() throws {
        try assertRejected("Invalid/MissingDestination.xml",
                           says: ["MissingDestination.xml, line 5", "'Note.folder' points at 'Folder', which is not an entity of this model"],
                           entity: "Note", key: "folder")
    }

    func testARelationshipWithoutDestination() throws {
        try assertRejected("Invalid/NoDestination.xml", says: ["entity 'Note', relationship 'folder': it has no destinationEntity"],
                           entity: "Note", key: "folder")
    }

    func testAMissingInverse() throws {
        try assertRejected("Invalid/MissingInverse.xml",
                           says: ["MissingInverse.xml, line 8", "names the inverse 'Folder.notes', which does not exist"],
                           entity: "Note", key: "folder")
    }

    func testADefaultValueThatDoesNotFit() throws {
        try assertRejected("Invalid/BadDefault.xml", says: ["attribute 'stars': its default value '100000' is not a valid Integer 16 value"],
                           entity: "Note", key: "stars")
    }

    func testAnUnknownDeletionRule() throws {
        try assertRejected("Invalid/BadDeletionRule.xml", says: ["relationship 'notes': unknown deletionRule 'Shred'", "No Action"],
                           entity: "Folder", key: "notes")
    }

    func testAnIndexOnAMissingProperty() throws {
        try assertRejected("Invalid/UnknownIndexProperty.xml", says: ["UnknownIndexProperty.xml, line 3", "The index 'byTitle' of 'Note' names 'title'"],
                           entity: "Note", key: "title")
    }

    func testAConfigurationOfAMissingEntity() throws {
        try assertRejected("Invalid/UnknownConfigurationMember.xml", says: ["Configuration 'Cloud' names 'Folder'"])
    }

    func testAClassThatDisagreesWithItsEntity() throws {
        try assertRejected("Invalid/ClassMismatch.xml",
                           says: ["ClassMismatch.xml, line 4", "Actor.name is declared as attribute (string) but the model says attribute of type integer32"],
                           entity: "Actor", key: "name")
    }

    // MARK: - Inheritance that cannot be

    func testAParentThatIsNotInTheModel() throws {
        try assertRejected("Invalid/MissingParent.xml",
                           says: ["MissingParent.xml, line 6", "entity 'Podcast' inherits from 'Medium' (parentEntity), which is not an entity of this model. Entities: Media, Podcast."],
                           entity: "Podcast")
    }

    func testParentsThatGoRoundInACircle() throws {
        try assertRejected("Invalid/InheritanceCycle.xml",
                           says: ["inherits from itself through its parents", "inheritance cannot go round in a circle"])
    }

    func testASubentityRedeclaringAnInheritedProperty() throws {
        try assertRejected("Invalid/RedeclaredProperty.xml",
                           says: ["line 8", "Entity 'Podcast' declares 'title', which it already inherits from 'Media'"],
                           entity: "Podcast", key: "title")
    }

    // MARK: - What is not supported yet is refused by name

    func testTransientRelationshipsAreRefused() throws {
        // Transient attributes load (see TransientAttributeTests); a transient relationship is still refused by name.
        try assertRejected("Invalid/TransientRelationship.xml",
                           says: ["TransientRelationship.xml, line 8", "relationship 'recent': it is transient", "Transient relationships are not supported yet"],
                           entity: "Note", key: "recent")
    }

    func testValidationRulesAreRefused() throws {
        // Loading them without enforcing them would let values through that the model forbids.
        try assertRejected("Invalid/ValidationRule.xml", says: ["attribute 'stars': it has the validation rule minValueString=\"1\"", "not supported yet"],
                           entity: "Note", key: "stars")
    }

    func testFetchedPropertiesAreRefused() throws {
        try assertRejected("Invalid/FetchedProperty.xml", says: ["fetched property 'similar'", "not supported yet"], entity: "Note", key: "similar")
    }

    // MARK: - Files and folders

    func testAMissingFile() throws {
        try assertRejected("Nowhere.xcdatamodeld", .fileReadNoSuchFile, says: ["There is no model at", "Nowhere.xcdatamodeld"])
    }

    func testACurrentVersionThatIsMissing() throws {
        try assertRejected("Invalid/MissingCurrent.xcdatamodeld", .fileReadNoSuchFile,
                           says: ["names the current version 'Notes 3.xcdatamodel', which is not in the folder", "Versions: Notes.xcdatamodel"])
    }

    func testSeveralVersionsWithoutACurrentOne() throws {
        try assertRejected("Invalid/TwoVersions.xcdatamodeld", .fileReadNoSuchFile,
                           says: ["holds 2 versions (Notes 2.xcdatamodel, Notes.xcdatamodel) but no .xccurrentversion"])
    }

    func testACompiledModelIsExplained() throws {
        let folder = try temporaryFolder().appendingPathComponent("Films.momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let error = assertPersistenceError(.fileReadCorruptFile) { _ = try ManagedObjectModel(contentsOf: folder, managedObjectClasses: []) }
        XCTAssertTrue(error?.message.contains("compiled by Xcode's momc") == true, error?.message ?? "")
    }

    func testTruncatedAndEmptyFilesSayWhatIsWrong() throws {
        let file = try temporaryFolder().appendingPathComponent("contents")
        for (text, expected) in [
            ("", "the file has no root element"),
            ("<model>\n  <entity name=\"A\">", "<entity> opened on line 2 is still open"),
            ("<model/><model/>", "content after the root element"),
            ("not xml", "the file is empty or is not XML"),
        ] {
            try Data(text.utf8).write(to: file)
            let error = assertPersistenceError(.fileReadCorruptFile) { _ = try ManagedObjectModel(contentsOf: file, managedObjectClasses: []) }
            XCTAssertTrue(error?.message.contains(expected) == true, "\(text.debugDescription): \(error?.message ?? "")")
        }
    }

    func testMutatedFilesNeverCrash() throws {
        // Byte changes in a real model (seeded, so a failure repeats): each file is read or refused, never a trap.
        let original = [UInt8](try Data(contentsOf: ModelFixtures.url("Catalog.xcdatamodel/contents")))
        let file = try temporaryFolder().appendingPathComponent("contents")
        let replacements = Array("<>/\"= aZ9_.-&;#x\u{0}".utf8) + [0xC3, 0xFF]
        var generator = SeededGenerator(seed: 16)
        var (read, refused) = (0, 0)
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = replacements.randomElement(using: &generator)!
            }
            try Data(bytes).write(to: file)
            do {
                _ = try ManagedObjectModel(contentsOf: file, managedObjectClasses: [])
                read += 1
            } catch let error as PersistenceError {
                XCTAssertFalse(error.message.isEmpty)
                refused += 1
            }
        }
        XCTAssertEqual(read + refused, 400)
        XCTAssertGreaterThan(refused, 0, "some changes break the file")
    }

    func testDeepNestingIsRefusedWithoutExhaustingTheStack() throws {
        let file = try temporaryFolder().appendingPathComponent("contents")
        let depth = 200_000
        try Data(("<model>" + String(repeating: "<userInfo>", count: depth) + String(repeating: "</userInfo>", count: depth) + "</model>").utf8)
            .write(to: file)
        let error = assertPersistenceError(.fileReadCorruptFile) { _ = try ManagedObjectModel(contentsOf: file, managedObjectClasses: []) }
        XCTAssertTrue(error?.message.contains("nested more than 64 levels deep") == true, error?.message ?? "")
    }

    func testADateDefaultMustBeFinite() throws {
        let file = try temporaryFolder().appendingPathComponent("contents")
        try Data("""
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note"><attribute name="due" optional="YES" attributeType="Date" defaultDateTimeInterval="1e999"/></entity>
            </model>
            """.utf8).write(to: file)
        let error = assertPersistenceError(.coreData) { _ = try ManagedObjectModel(contentsOf: file, managedObjectClasses: []) }
        XCTAssertTrue(error?.message.contains("defaultDateTimeInterval '1e999' is not a number of seconds") == true, error?.message ?? "")
    }

    func testGarbageNeverCrashes() throws {
        // Truncations of a real model: every prefix is either read or refused with an error, never a trap.
        let data = try Data(contentsOf: ModelFixtures.url("Catalog.xcdatamodel/contents"))
        let file = try temporaryFolder().appendingPathComponent("contents")
        var refused = 0
        for length in stride(from: 0, to: data.count, by: 97) {
            try data.prefix(length).write(to: file)
            do { _ = try ManagedObjectModel(contentsOf: file, managedObjectClasses: []) } catch is PersistenceError { refused += 1 }
        }
        XCTAssertEqual(refused, (data.count + 96) / 97, "every truncated file is refused")
    }
}
