import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// `returnsObjectsAsFaults = false`: Apple's header says the returned objects "are pre-populated with their property
/// values (making them fully-faulted objects, which will immediately return NO if sent the -isFault message.)". That
/// holds for the objects the context already had as faults too — from `object(with:)`, from an earlier faulting
/// fetch, behind a to-one relationship, of a subentity in a hierarchy fetch, read through a parent — which are filled
/// from the fetched rows. An object already filled keeps its values (a fetch refreshes nothing), and unsaved changes
/// are never overwritten.
final class NonFaultFetchTests: PersistenceTestCase {
    /// Movies saved and the context reset, so the next reads start from nothing.
    private func saveMovies(_ titles: [String]) throws -> [ManagedObjectID] {
        let movies = titles.enumerated().map { makeMovie($1, year: 2000 + $0) }
        try context.save()
        let ids = movies.map(\.objectID)
        context.reset()
        return ids
    }

    /// Movies by title (sorted in SQL); unsorted when `sorted` is false, as sorting in memory would fire faults.
    private func fetchMovies(asFaults: Bool, in context: ManagedObjectContext? = nil, sorted: Bool = true) throws -> [Movie] {
        let request = FetchRequest<Movie>(entityName: "Movie")
        request.returnsObjectsAsFaults = asFaults
        if sorted { request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)] }
        return try (context ?? self.context).fetch(request)
    }

    func testAFaultFromObjectWithComesBackFilled() throws {
        let ids = try saveMovies(["Alien", "Brazil"])
        let fault = try XCTUnwrap(context.object(with: ids[1]) as? Movie)
        XCTAssertTrue(fault.isFault)
        XCTAssertEqual(fault.faultState, .faultWithoutRow)

        let movies = try fetchMovies(asFaults: false)
        XCTAssertTrue(movies.contains { $0 === fault }, "one object per ID: the registered one is returned")
        XCTAssertFalse(fault.isFault)
        XCTAssertEqual(fault.primitiveTitle, "Brazil", "filled during the fetch, not by this read")
        XCTAssertFalse(movies.contains(where: \.isFault))
    }

    func testAFaultFromAnEarlierFaultingFetchComesBackFilledWithTheFetchedRow() throws {
        let ids = try saveMovies(["Alien", "Brazil"])
        let faults = try fetchMovies(asFaults: true)
        XCTAssertTrue(faults.allSatisfy { $0.faultState == .faultWithRow }, "faults holding their row, not fired")

        // The store changes while the objects are still faults: their old rows were never looked at.
        try changeElsewhere(ids[0]) { $0.title = "Aliens" }
        let movies = try fetchMovies(asFaults: false)

        XCTAssertEqual(Set(movies.map(ObjectIdentifier.init)), Set(faults.map(ObjectIdentifier.init)), "the same objects")
        XCTAssertFalse(movies.contains(where: \.isFault))
        XCTAssertEqual(movies.map(\.primitiveTitle), ["Aliens", "Brazil"], "values from the rows this fetch read")
        XCTAssertTrue(movies.allSatisfy { $0.packedBlock != nil }, "the common fetch, packed rows")
        XCTAssertTrue(movies.allSatisfy { !$0.hasChanges })
        // The version came with the row: saving a change does not conflict with the other context's save.
        movies[0].year = 1986
        XCTAssertNoThrow(try context.save())
    }

    func testAFaultingFetchLeavesRegisteredFaultsAsTheyAre() throws {
        let ids = try saveMovies(["Alien"])
        let fault = try XCTUnwrap(context.object(with: ids[0]) as? Movie)
        let faults = try fetchMovies(asFaults: true)
        XCTAssertTrue(faults[0] === fault)
        XCTAssertTrue(fault.isFault, "a faulting fetch fires nothing")
    }

    func testToOneFaultsComeBackFilled() throws {
        for (name, title) in [("Ridley Scott", "Alien"), ("Terry Gilliam", "Brazil")] {
            let director = Director(context: context)
            director.name = name
            makeMovie(title).director = director
        }
        try context.save()
        context.reset()

        // Terry Gilliam is first read by a faulting fetch (a fault holding its row); Ridley Scott is first met
        // through the relationship (a fault without a row).
        let faulting = FetchRequest<Director>(entityName: "Director")
        faulting.predicate = FetchPredicate(format: "name == %@", argumentArray: ["Terry Gilliam"])
        let gilliam = try XCTUnwrap(try context.fetch(faulting).first)
        let movies = try fetchMovies(asFaults: false)
        let scott = try XCTUnwrap(movies[0].director)
        XCTAssertTrue(movies[1].director === gilliam)
        XCTAssertEqual(scott.faultState, .faultWithoutRow)
        XCTAssertEqual(gilliam.faultState, .faultWithRow)
        let other = container.newBackgroundContext()
        try other.performAndWait {
            (try other.existingObject(with: gilliam.objectID) as! Director).name = "T. Gilliam"
            try other.save()
        }

        let request = FetchRequest<Director>(entityName: "Director")
        request.returnsObjectsAsFaults = false
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        let directors = try context.fetch(request)
        XCTAssertTrue(directors[0] === scott && directors[1] === gilliam)
        XCTAssertFalse(scott.isFault)
        XCTAssertFalse(gilliam.isFault)
        XCTAssertEqual(scott.primitiveName, "Ridley Scott")
        XCTAssertEqual(gilliam.primitiveName, "T. Gilliam", "filled from the row this fetch read")
    }

    func testAnObjectWithUnsavedChangesIsNeverOverwritten() throws {
        let ids = try saveMovies(["Alien", "Brazil"])
        let movie = try XCTUnwrap(context.existingObject(with: ids[0]) as? Movie)
        movie.title = "Alien (director's cut)"
        try changeElsewhere(ids[0]) { $0.title = "Aliens"; $0.year = 1986 }

        let movies = try fetchMovies(asFaults: false)
        XCTAssertTrue(movies.contains { $0 === movie })
        XCTAssertEqual(movie.title, "Alien (director's cut)", "the pending value wins")
        XCTAssertEqual(movie.year, 2000, "and the values it was read with stay: a fetch refreshes nothing")
        XCTAssertTrue(movie.hasChanges)
        XCTAssertEqual(movie.changedValues().keys.sorted(), ["title"])
        XCTAssertEqual(movie.committedValues(forKeys: ["title"])["title"] as? String, "Alien")
    }

    func testAFilledObjectKeepsItsValues() throws {
        let ids = try saveMovies(["Alien"])
        let movie = try XCTUnwrap(context.existingObject(with: ids[0]) as? Movie)
        XCTAssertFalse(movie.isFault)
        try changeElsewhere(ids[0]) { $0.title = "Aliens" }

        let movies = try fetchMovies(asFaults: false)
        XCTAssertTrue(movies[0] === movie)
        XCTAssertEqual(movie.title, "Alien", "not refreshed (Core Data refreshes only with shouldRefreshRefetchedObjects)")
        XCTAssertFalse(movie.hasChanges)
    }

    func testSubentityFaultsComeBackFilledFromAHierarchyFetch() throws {
        let container = try makeContainer(model: LibraryModel.make())
        let context = container.viewContext
        let book = Book(context: context)
        book.title = "Dune"
        book.pages = 412
        let audiobook = Audiobook(context: context)
        audiobook.title = "Dune, read aloud"
        audiobook.narrator = "Scott Brick"
        let album = Album(context: context)
        album.title = "Blue"
        album.tracks = 10
        try context.save()
        let ids = [book, audiobook, album].map(\.objectID)
        context.reset()

        // One fault without a row, the others holding rows from a faulting fetch of the parent entity.
        let audiobookFault = try XCTUnwrap(context.object(with: ids[1]) as? Audiobook)
        let faulting = FetchRequest<Media>(entityName: "Media")
        let faults = try context.fetch(faulting)
        XCTAssertEqual(faults.count, 3)
        XCTAssertTrue(faults.allSatisfy(\.isFault))

        let request = FetchRequest<Media>(entityName: "Media")
        request.returnsObjectsAsFaults = false
        let media = try context.fetch(request)
        XCTAssertEqual(Set(media.map(ObjectIdentifier.init)), Set(faults.map(ObjectIdentifier.init)))
        XCTAssertFalse(media.contains(where: \.isFault))
        XCTAssertFalse(audiobookFault.isFault)
        XCTAssertEqual(audiobookFault.primitiveNarrator, "Scott Brick")
        let filledBook = try XCTUnwrap(media.first { $0.objectID == ids[0] } as? Book)
        XCTAssertEqual(filledBook.primitivePages, 412)
        let filledAlbum = try XCTUnwrap(media.first { $0.objectID == ids[2] } as? Album)
        XCTAssertEqual(filledAlbum.primitiveTracks, 10)
    }

    func testAFaultReadThroughAParentComesBackFilled() throws {
        let ids = try saveMovies(["Alien", "Brazil"])
        // The parent changes one movie and inserts another: the child reads both through it.
        let parentsAlien = try XCTUnwrap(context.existingObject(with: ids[0]) as? Movie)
        parentsAlien.title = "Alien (parent's cut)"
        makeMovie("Casablanca")
        let child = ManagedObjectContext(.privateQueue)
        child.parent = context
        try child.performAndWait {
            let alien = try XCTUnwrap(child.object(with: ids[0]) as? Movie)
            let brazil = try XCTUnwrap(child.object(with: ids[1]) as? Movie)
            XCTAssertTrue(alien.isFault)
            let movies = try fetchMovies(asFaults: false, in: child, sorted: false)
            XCTAssertEqual(movies.count, 3)
            XCTAssertFalse(movies.contains(where: \.isFault))
            XCTAssertTrue(movies.contains { $0 === alien } && movies.contains { $0 === brazil })
            XCTAssertFalse(alien.isFault)
            XCTAssertEqual(alien.primitiveTitle, "Alien (parent's cut)")
            XCTAssertEqual(brazil.primitiveTitle, "Brazil")
        }
    }
}

/// Values read without firing a fault, so a test sees whether the fetch filled the object.
private extension ManagedObject {
    func primitive(_ key: String) -> PersistentValue {
        guard let index = entity.propertyIndexByName[key], faultState == .fired else { return .null }
        return attributeValue(at: index)
    }
}

private extension Movie {
    var primitiveTitle: String { if case .string(let title) = primitive("title") { title } else { "<fault>" } }
}

private extension Director {
    var primitiveName: String { if case .string(let name) = primitive("name") { name } else { "<fault>" } }
}

private extension Audiobook {
    var primitiveNarrator: String { if case .string(let name) = primitive("narrator") { name } else { "<fault>" } }
}

private extension Book {
    var primitivePages: Int64 { if case .integer(let pages) = primitive("pages") { pages } else { -1 } }
}

private extension Album {
    var primitiveTracks: Int64 { if case .integer(let tracks) = primitive("tracks") { tracks } else { -1 } }
}
