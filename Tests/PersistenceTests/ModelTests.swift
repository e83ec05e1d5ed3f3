import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

final class ModelTests: XCTestCase {
    private func assertInvalid(_ fragment: String, file: StaticString = #filePath, line: UInt = #line,
                               _ entities: @autoclosure () -> [EntityDescription]) {
        XCTAssertThrowsError(try ManagedObjectModel(entities: entities()), file: file, line: line) { error in
            let message = (error as? PersistenceError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(fragment), "'\(message)' lacks '\(fragment)'", file: file, line: line)
        }
    }

    func testADanglingRelationshipIsNamed() {
        assertInvalid("'Movie.director' points at 'Person', which is not an entity of this model",
                      [EntityDescription(name: "Movie", properties: [.toOne("director", "Person", inverse: nil)])])
    }

    func testInversesMustMatch() {
        assertInvalid("names the inverse 'Director.films', which does not exist", [
            EntityDescription(name: "Movie", properties: [.toOne("director", "Director", inverse: "films")]),
            EntityDescription(name: "Director", properties: [.toMany("movies", "Movie", inverse: "director")]),
        ])
        assertInvalid("that relationship points at 'Studio', not at 'Movie'", [
            EntityDescription(name: "Movie", properties: [.toOne("director", "Director", inverse: "studios")]),
            EntityDescription(name: "Director", properties: [.toMany("studios", "Studio", inverse: nil)]),
            EntityDescription(name: "Studio", properties: []),
        ])
    }

    func testAnInverseThatDoesNotPointBackLoadsWithAWarning() throws {
        // Xcode warns and Core Data loads such a model; only the warning tells.
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [.toOne("director", "Director", inverse: "movies"), .toOne("producer", "Director", inverse: nil)]),
            EntityDescription(name: "Director", properties: [.toMany("movies", "Movie", inverse: "producer")]),
        ])
        XCTAssertEqual(model.entitiesByName["Movie"]?.relationshipsByName["director"]?.inverseRelationship?.name, "movies")
        XCTAssertEqual(model.entitiesByName["Director"]?.relationshipsByName["movies"]?.inverseRelationship?.name, "producer")
        XCTAssertEqual(model.warnings.filter { $0.contains("does not point back") }, [
            "Movie.director -- inverse relationship Director.movies does not point back: its inverse is Movie.producer. Changing Movie.director updates Director.movies, but not the other way round.",
            "Director.movies -- inverse relationship Movie.producer does not point back: it has no inverse. Changing Director.movies updates Movie.producer, but not the other way round.",
        ])
    }

    func testNamesAreChecked() {
        assertInvalid("two entities named 'Movie'", [
            EntityDescription(name: "Movie", properties: []), EntityDescription(name: "Movie", properties: []),
        ])
        assertInvalid("two properties named 'Title'", [
            EntityDescription(name: "Movie", properties: [.attribute("title", .string), .attribute("Title", .string)]),
        ])
        assertInvalid("must start with a letter", [EntityDescription(name: "1Movie", properties: [])])
        assertInvalid("clashes with a ManagedObject member", [EntityDescription(name: "Movie", properties: [.attribute("objectID", .string)])])
        assertInvalid("kept for the store's own columns", [EntityDescription(name: "Movie", properties: [.attribute("Z_PK", .integer64)])])
        assertInvalid("cannot be ordered", [
            EntityDescription(name: "A", properties: [RelationshipDescription(name: "b", destination: "A", inverse: nil, ordered: true)]),
        ])
    }

    func testConstraintsNameAttributes() {
        assertInvalid("names 'code', which is not one of its attributes",
                      [EntityDescription(name: "Tag", properties: [.attribute("name", .string)], uniquenessConstraints: [["code"]])])
    }

    func testManagedPropertiesAreCheckedAgainstTheEntity() {
        final class Wrong: ManagedObject {
            @Managed var title: Int
        }
        assertInvalid("Wrong.title is declared as attribute (integer16 or integer32 or integer64) but the model says attribute of type string",
                      [EntityDescription(name: "Wrong", managedObjectClass: Wrong.self, properties: [.attribute("title", .string)])])
        final class Typo: ManagedObject {
            @Managed var titel: String
        }
        assertInvalid("Typo.titel is @Managed but entity Typo has no property 'titel'",
                      [EntityDescription(name: "Typo", managedObjectClass: Typo.self, properties: [.attribute("title", .string)])])
        final class Unordered: ManagedObject {
            @Managed var items: Set<Unordered>
        }
        assertInvalid("ordered to-many relationship to Unordered (NSOrderedSet)", [
            EntityDescription(name: "Unordered", managedObjectClass: Unordered.self,
                              properties: [.toMany("items", "Unordered", inverse: nil, ordered: true)]),
        ])
    }

    /// Core Data hands an ordered to-many over as an `NSOrderedSet`; what an `@NSManaged` property typed `[T]` does
    /// with it is undocumented, so the model refuses the array here, at start-up, for either kind.
    func testAToManyRelationshipDeclaredAsASwiftArrayIsRefused() {
        final class Listed: ManagedObject {
            @Managed var items: [Listed]
        }
        for ordered in [true, false] {
            assertInvalid("Listed.items is declared as [Listed], a Swift array. Core Data hands a to-many relationship "
                          + "over as an NSOrderedSet (ordered) or an NSSet", [
                EntityDescription(name: "Listed", managedObjectClass: Listed.self,
                                  properties: [.toMany("items", "Listed", inverse: nil, ordered: ordered)]),
            ])
        }
    }

    func testAnOrderedToManyIsAnOrderedSetThatKeepsItsOrderThroughASave() throws {
        final class Playlist: ManagedObject {
            @Managed var name: String
            @Managed var tracks: NSOrderedSet
        }
        final class Track: ManagedObject {
            @Managed var title: String
            @Managed var playlist: Playlist?
        }
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Playlist", managedObjectClass: Playlist.self, properties: [
                .attribute("name", .string),
                .toMany("tracks", "Track", inverse: "playlist", ordered: true, deleteRule: .cascade),
            ]),
            EntityDescription(name: "Track", managedObjectClass: Track.self, properties: [
                .attribute("title", .string), .toOne("playlist", "Playlist", inverse: "tracks"),
            ]),
        ])
        let container = PersistentContainer(name: "Playlists", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        let context = container.viewContext
        let playlist = Playlist(context: context)
        playlist.name = "Road"
        let tracks = ["C", "A", "B"].map { title in
            let track = Track(context: context)
            track.title = title
            return track
        }
        playlist.tracks = NSOrderedSet(array: tracks)
        XCTAssertEqual(tracks.map { $0.playlist === playlist }, [true, true, true], "the inverse follows")
        try context.save()
        var reordered = playlist.tracks.array as! [Track]
        reordered.swapAt(0, 2)
        playlist.tracks = NSOrderedSet(array: reordered)
        try context.save()

        let reader = container.newBackgroundContext()
        let titles: [String] = try reader.performAndWait {
            let request = FetchRequest<Playlist>(entityName: "Playlist")
            let read = try XCTUnwrap(try reader.fetch(request).first)
            return read.tracks.compactMap { ($0 as? Track)?.title }
        }
        XCTAssertEqual(titles, ["B", "A", "C"])
    }

    func testDefaultValuesMustFitTheirAttribute() {
        assertInvalid("The default value \"soon\" of 'Task.due' is not a date value",
                      [EntityDescription(name: "Task", properties: [.attribute("due", .date, defaultValue: "soon")])])
    }

    func testAnEntityBelongsToOneModel() throws {
        let entity = EntityDescription(name: "Note", properties: [])
        _ = try ManagedObjectModel(entities: [entity])
        assertInvalid("already belongs to another model", [entity])
    }

    func testTheVersionHashFollowsTheSchemaOnly() throws {
        let a = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("text", .string, optional: false)])])
        let b = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("text", .string, defaultValue: "x")])])
        let c = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("text", .integer64)])])
        XCTAssertEqual(a.versionHash, b.versionHash)
        XCTAssertNotEqual(a.versionHash, c.versionHash)
    }

    func testTypedKeyPathsBecomeModelKeyPaths() {
        XCTAssertEqual(FetchSortDescriptor(keyPath: \Movie.title, ascending: true).key, "title")
        XCTAssertEqual(FetchSortDescriptor(keyPath: \Movie.director?.name, ascending: true).key, "director.name")
        XCTAssertEqual(FetchSortDescriptor(keyPath: \Scene.movie?.director?.born, ascending: true).key,
                       "movie.director.born")
    }
}
