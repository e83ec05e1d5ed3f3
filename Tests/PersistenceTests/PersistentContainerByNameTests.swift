import Foundation
@_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

/// `PersistentContainer(name:)`: the model file found by name among the resources, as in every Core Data app,
/// and "Failed to load model named …" logged when it is not there, the stores loading with an empty model.
final class PersistentContainerByNameTests: PersistenceTestCase {
    /// Loads `container`'s stores (in memory) and returns the error reported, if any.
    private func load(_ container: PersistentContainer) -> (any Error)? {
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        let box = ErrorBox()
        container.loadPersistentStores { _, error in box.error = error }
        return box.error
    }

    /// Why `container`'s model could not be loaded, as logged, after checking that its stores load anyway with an
    /// empty model (Core Data's "logs and carries on"; what its load reports is undocumented: the stricter reading).
    private func loggedFailure(_ container: PersistentContainer, file: StaticString = #filePath,
                               line: UInt = #line) throws -> PersistenceError {
        XCTAssertNil(load(container), "the stores load with the empty model", file: file, line: line)
        XCTAssertEqual(container.managedObjectModel.entities.count, 0, file: file, line: line)
        return try XCTUnwrap(container.modelLoadingError, "the failure is logged", file: file, line: line)
    }

    func testTheModelIsFoundInTheGivenBundle() throws {
        let container = PersistentContainer(name: "Films", bundle: .module)
        XCTAssertNil(load(container))
        XCTAssertEqual(container.managedObjectModel.versionHash, try TestModel.make().versionHash)
        // The classes come from representedClassName and the bundle's module (PersistenceTests).
        let movie = Movie(context: container.viewContext)
        movie.title = "Heat"
        movie.year = 1995
        try container.viewContext.save()
        let fetched = try container.viewContext.fetch(FetchRequest<Movie>(entityName: "Movie"))
        XCTAssertEqual(fetched.map(\.title), ["Heat"])
    }

    func testTheModelIsFoundAmongTheProgramsResourcesWithoutABundle() throws {
        let container = PersistentContainer(name: "Films")
        XCTAssertNil(load(container))
        XCTAssertNotNil(container.managedObjectModel.entitiesByName["Movie"])
        XCTAssertTrue(container.managedObjectModel.entitiesByName["Movie"]?.managedObjectClass == Movie.self)
    }

    func testANameGivenWithItsExtensionIsExplained() throws {
        let container = PersistentContainer(name: "Films.xcdatamodeld", bundle: .module)
        let error = try loggedFailure(container)
        XCTAssertTrue(error.message.hasPrefix("Failed to load model named Films.xcdatamodeld: "), error.message)
        XCTAssertTrue(error.message.contains("The name is the file's name without its extension: \"Films\"."), error.message)
    }

    func testAWrongNameIsLoggedAndShowsAtTheFirstFetch() throws {
        let container = PersistentContainer(name: "Film", bundle: .module)
        let error = try loggedFailure(container)
        XCTAssertEqual(error.coreDataCode, .fileReadNoSuchFile)
        XCTAssertTrue(error.message.hasPrefix("Failed to load model named Film: there is no Film.xcdatamodeld"), error.message)
        XCTAssertTrue(error.message.contains("CoreDataWorkbook_PersistenceTests.resources"), "says where it looked: \(error.message)")
        // The mistake shows at the first use, which says why the model is empty.
        let fetch = assertPersistenceError(.persistentStoreIncompatibleSchema) {
            _ = try container.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Movie"))
        }
        XCTAssertTrue(fetch?.message.contains("its container could not load its model (Failed to load model named Film: ") == true,
                      fetch?.message ?? "")
        EntityDescription.insertNewObject(forEntityName: "Movie", into: container.viewContext)
        let save = assertPersistenceError(.persistentStoreIncompatibleSchema) { try container.viewContext.save() }
        XCTAssertTrue(save?.message.contains("Failed to load model named Film") == true, save?.message ?? "")
    }

    func testABrokenModelFoundByNameSaysWhy() throws {
        let container = PersistentContainer(name: "MissingCurrent", bundle: .module)
        let error = try loggedFailure(container)
        XCTAssertTrue(error.message.hasPrefix("Failed to load model named MissingCurrent: "), error.message)
        XCTAssertTrue(error.message.contains("names the current version 'Notes 3.xcdatamodel'"), error.message)
    }

    func testACompiledModelFoundByNameIsExplained() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Shop.momd"), withIntermediateDirectories: true)
        let bundle = try XCTUnwrap(Bundle(url: folder))
        let error = try loggedFailure(PersistentContainer(name: "Shop", bundle: bundle))
        XCTAssertTrue(error.message.hasPrefix("Failed to load model named Shop: "), error.message)
        XCTAssertTrue(error.message.contains("compiled by Xcode's momc"), error.message)
    }

    func testRegisteredClassesAreUsed() throws {
        let container = PersistentContainer(name: "Catalog", bundle: .module, managedObjectClasses: [CatalogClasses.Reader.self])
        XCTAssertNil(load(container))
        let reader = CatalogClasses.Reader(context: container.viewContext)
        reader.name = "Ada"
        XCTAssertTrue(container.managedObjectModel.entity(for: CatalogClasses.Reader.self)?.name == "Reader")
        XCTAssertEqual(reader.value(forKey: "name") as? String, "Ada")
    }

    func testOnlyIdentifiersAreLookedUpAsClassNames() {
        XCTAssertTrue(ManagedObjectClassResolver.isQualifiedIdentifier("PersistenceTests.Movie"))
        XCTAssertTrue(ManagedObjectClassResolver.isQualifiedIdentifier("_Movie2"))
        for name in ["$s16PersistenceTests5MovieCN", "Films..Movie", ".Movie", "Movie<Int>", "2Movie", "Fi lms.Movie", ""] {
            XCTAssertFalse(ManagedObjectClassResolver.isQualifiedIdentifier(name), name)
        }
        // A mangled name in a file is not handed to the runtime: no class, a warning, no crash.
        let resolver = ManagedObjectClassResolver(registered: [], moduleHints: [])
        guard case .notFound = resolver.resolve("$s16PersistenceTests5MovieCN") else { return XCTFail("a mangled name resolved") }
    }

    func testBundleNamesGiveTheirModule() {
        XCTAssertEqual(ModelResourceLocator.modules(ofBundleNamed: "CoreDataWorkbook_PersistenceTests.resources"), ["PersistenceTests"])
        XCTAssertEqual(ModelResourceLocator.modules(ofBundleNamed: "my_app_Store_Kit.bundle"), ["app_Store_Kit", "Store_Kit", "Kit"])
        XCTAssertEqual(ModelResourceLocator.modules(ofBundleNamed: "Plain.bundle"), [])
    }
}

/// The error a load reported (load is synchronous here; the box only satisfies the handler's Sendable closure).
private final class ErrorBox: @unchecked Sendable {
    var error: (any Error)?
}
