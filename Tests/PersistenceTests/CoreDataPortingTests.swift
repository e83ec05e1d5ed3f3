import Foundation
@_spi(TestHarness) import Persistence
import XCTest

// The README's recipe for bringing Core Data code to Linux, compiled: typealiases declared in the app's own module
// (here, file-private in this one) shadow Foundation's `NSPredicate` and `NSSortDescriptor`, and Core Data code then
// reads as written for Apple platforms.
private typealias NSManagedObject = ManagedObject
private typealias NSManagedObjectContext = ManagedObjectContext
private typealias NSManagedObjectContextConcurrencyType = ManagedObjectContextConcurrencyType
private typealias NSManagedObjectID = ManagedObjectID
private typealias NSPersistentContainer = PersistentContainer
private typealias NSFetchRequest<Result: NSFetchRequestResult> = FetchRequest<Result>
private typealias NSPredicate = FetchPredicate
private typealias NSCompoundPredicate = CompoundPredicate
private typealias NSSortDescriptor = FetchSortDescriptor
private typealias NSMergePolicy = MergePolicy
private typealias NSMergePolicyType = MergePolicyType
private typealias NSFetchRequestResult = FetchRequestResult
private typealias NSEntityDescription = EntityDescription
private typealias NSManagedObjectModel = ManagedObjectModel
private typealias NSPersistentStoreCoordinator = PersistentStoreCoordinator
private typealias NSPersistentStoreDescription = PersistentStoreDescription
private typealias NSPersistentStore = PersistentStore
private typealias NSFetchedResultsController<Result: NSFetchRequestResult> = FetchedResultsController<Result>
private typealias NSFetchedResultsControllerDelegate = FetchedResultsControllerDelegate
private typealias NSMappingModel = MappingModel
private typealias NSMigrationManager = MigrationManager
private typealias NSPropertyDescription = PropertyDescription
private typealias NSAttributeDescription = AttributeDescription
private typealias NSAttributeType = AttributeType
private typealias NSRelationshipDescription = RelationshipDescription
private typealias NSDeleteRule = DeleteRule
private typealias NSFetchIndexDescription = FetchIndexDescription
private typealias NSFetchRequestResultType = FetchRequestResultType
private typealias NSAsynchronousFetchRequest<Result: NSFetchRequestResult> = AsynchronousFetchRequest<Result>
private typealias NSAsynchronousFetchResult<Result: NSFetchRequestResult> = AsynchronousFetchResult<Result>
private typealias NSPersistentStoreAsynchronousResult = PersistentStoreAsynchronousResult
private typealias NSPersistentStoreRequest = PersistentStoreRequest
private typealias NSPersistentStoreRequestType = PersistentStoreRequestType
private typealias NSPersistentStoreResult = PersistentStoreResult
private typealias NSBatchDeleteRequest = BatchDeleteRequest
private typealias NSBatchDeleteRequestResultType = BatchDeleteRequestResultType
private typealias NSBatchDeleteResult = BatchDeleteResult
private typealias NSBatchUpdateRequest = BatchUpdateRequest
private typealias NSBatchUpdateRequestResultType = BatchUpdateRequestResultType
private typealias NSBatchUpdateResult = BatchUpdateResult
private typealias NSBatchInsertRequest = BatchInsertRequest
private typealias NSBatchInsertRequestResultType = BatchInsertRequestResultType
private typealias NSBatchInsertResult = BatchInsertResult
private typealias NSMergeConflict = MergeConflict
private typealias NSConstraintConflict = ConstraintConflict
private typealias NSSnapshotEventType = SnapshotEventType
private typealias NSQueryGenerationToken = QueryGenerationToken
private typealias NSFetchedResultsSectionInfo = FetchedResultsSectionInfo
private typealias NSFetchedResultsChangeType = FetchedResultsChangeType
private typealias NSPersistentHistoryChangeRequest = PersistentHistoryChangeRequest
private typealias NSPersistentHistoryResult = PersistentHistoryResult
private typealias NSPersistentHistoryResultType = PersistentHistoryResultType
private typealias NSPersistentHistoryTransaction = PersistentHistoryTransaction
private typealias NSPersistentHistoryChange = PersistentHistoryChange
private typealias NSPersistentHistoryChangeType = PersistentHistoryChangeType
private typealias NSPersistentHistoryToken = PersistentHistoryToken
private typealias NSStagedMigrationManager = StagedMigrationManager
private typealias NSMigrationStage = MigrationStage
private typealias NSLightweightMigrationStage = LightweightMigrationStage
private typealias NSCustomMigrationStage = CustomMigrationStage
private typealias NSManagedObjectModelReference = ManagedObjectModelReference

/// An app's helper protocol as Core Data apps declare it.
private protocol Named: NSFetchRequestResult {
    static var entityName: String { get }
}

/// The protocol's default, as apps write it (Core Data's `NSManagedObject` has no `entityName`).
extension Named where Self: NSManagedObject {
    static var entityName: String { entity().name! }
}

extension Movie: Named {}

/// A class as Xcode's code generation writes it ("Class Definition"): its typed `fetchRequest()` sits in the
/// generated extension, beside `NSManagedObject`'s untyped one.
private class Cue: NSManagedObject {}

extension Cue {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Cue> {
        return NSFetchRequest<Cue>(entityName: "Cue")
    }
}

/// Core Data code in Core Data's spellings, running on Persistence through the typealiases above.
final class CoreDataPortingTests: PersistenceTestCase {
    /// An app's helper as Core Data apps write it.
    private func recentTitles(in context: NSManagedObjectContext, since year: Int) throws -> [String] {
        let request = NSFetchRequest<Movie>(entityName: "Movie")
        request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "year >= %d", year),
            NSPredicate(format: "title != nil"),
        ])
        request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
        return try context.fetch(request).map(\.title)
    }

    func testCoreDataSpelledCodeRunsThroughTypealiases() throws {
        let viewContext: NSManagedObjectContext = container.viewContext
        viewContext.mergePolicy = NSMergePolicy(merge: NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType)
        XCTAssertEqual(viewContext.mergePolicy as? NSMergePolicy, .mergeByPropertyObjectTrump)
        viewContext.userInfo["role"] = "view"
        for (title, year) in [("Heat", 1995), ("Ran", 1985), ("Her", 2013)] { makeMovie(title, year: year) }
        let saves = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: viewContext,
                                                           queue: nil) { saves.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        try viewContext.save()

        XCTAssertEqual(try recentTitles(in: viewContext, since: 1990), ["Her", "Heat"])
        let inserted = saves.notes.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>
        XCTAssertEqual(inserted?.count, 3)
        let ids: [NSManagedObjectID] = inserted.map { $0.map(\.objectID) } ?? []
        XCTAssertTrue(ids.allSatisfy { !$0.isTemporaryID })
        XCTAssertEqual((Movie.self as any Named.Type).entityName, "Movie")
    }

    /// A stack's store code as apps write it: the coordinator's stores, their metadata, the store type constant.
    /// Both of Core Data's ways to make a context, and the type it reports, as Apple spells them.
    func testAContextIsMadeEitherWayCoreDataMakesOne() {
        let older = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let newer = NSManagedObjectContext(.mainQueue)
        XCTAssertEqual(older.concurrencyType, .privateQueueConcurrencyType)
        XCTAssertEqual(newer.concurrencyType, NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType)
        XCTAssertEqual(NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType.rawValue, 1)
        XCTAssertEqual(NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType.rawValue, 2)
    }

    func testStoreCodeReadsAsWritten() throws {
        let coordinator: NSPersistentStoreCoordinator = container.persistentStoreCoordinator
        let store: NSPersistentStore = try XCTUnwrap(coordinator.persistentStores.first)
        XCTAssertEqual(store.type, NSSQLiteStoreType, "a store at /dev/null is an SQLite store, as in Core Data")
        var metadata = coordinator.metadata(for: store)
        metadata["lastImport"] = "2026-11-26"
        coordinator.setMetadata(metadata, for: store)
        XCTAssertEqual(coordinator.metadata(for: store)["lastImport"] as? String, "2026-11-26")
        let entity: NSEntityDescription = Movie.entity()
        let model: NSManagedObjectModel = coordinator.managedObjectModel
        XCTAssertTrue(model.entitiesByName[entity.name!] === entity)
    }

    /// Core Data types an entity's name `String?`, and real code unwraps it (`entity().name!`).
    func testEntityNameIsOptionalAsInCoreData() {
        let name: String? = Movie.entity().name
        XCTAssertEqual(name, "Movie")
        XCTAssertEqual(Movie.entity().name!, "Movie")
        XCTAssertEqual(container.managedObjectModel.entities.compactMap(\.name).sorted().first, "Actor")
    }

    /// Xcode's generated typed request compiles as written and is chosen by the type spelt out; `NSManagedObject`'s
    /// own stays the untyped request for the class's entity.
    func testGeneratedFetchRequestCompilesAsWritten() throws {
        let cues: NSFetchRequest<Cue> = Cue.fetchRequest()
        XCTAssertEqual(cues.entityName, "Cue")
        let untyped: NSFetchRequest<NSFetchRequestResult> = Movie.fetchRequest()
        XCTAssertEqual(untyped.entityName, "Movie")
        makeMovie("Heat")
        try context.save()
        XCTAssertTrue(try context.fetch(untyped).first is Movie)
    }
}
