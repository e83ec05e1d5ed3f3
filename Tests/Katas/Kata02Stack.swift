import Foundation
import KataSupport
import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 2 — The stack. Katas 1–2: a one-call container helper; 3–4: a StorageProvider, persisted or in memory;
/// 5–7: load errors without crashing, and a retry; 8: one model for every container.
final class Kata02Stack: KataCase {
    override class var lesson: Int { 2 }
    override class var folder: String { "02-stack" }
    override class func makeModel() throws -> ManagedObjectModel { try GardenModel.make() }

    private var devNull: URL { URL(fileURLWithPath: "/dev/null") }

    /// A folder of its own for this kata, removed afterwards.
    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-kata02-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A store location that cannot be created: a plain file stands where the store's folder should be. (Not a
    /// read-only folder: permissions do not stop root, which many containers and CI machines run as.)
    private func blockedLocation() throws -> (file: URL, store: URL) {
        let file = try temporaryFolder().appendingPathComponent("Garden")
        try Data("a file, not a folder".utf8).write(to: file)
        return (file, file.appendingPathComponent("Garden.sqlite"))
    }

    /// The error loading a store at `url` reports here. Apple does not document which code Core Data gives for a
    /// place where no store can be made (lesson 2), so the katas compare with this rather than with a number. An empty
    /// model claims no class, so it cannot disturb the learner's containers.
    private func storeError(at url: URL) throws -> NSError {
        let container = PersistentContainer(name: "Garden", managedObjectModel: ManagedObjectModel())
        let description = PersistentStoreDescription(url: url)
        description.shouldAddStoreAsynchronously = false
        container.persistentStoreDescriptions = [description]
        var reported: NSError?
        container.loadPersistentStores { _, error in reported = error as NSError? }
        return try XCTUnwrap(reported, "no store can be made at \(url.path), yet loading one reported no error")
    }

    private func savePlant(_ name: String, in context: ManagedObjectContext) throws {
        let plant = Plant(context: context)
        plant.name = name
        try context.save()
    }

    private func plantNames(in container: PersistentContainer) throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request: FetchRequest<Plant> = Plant.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
            return try reader.fetch(request).map(\.name)
        }
    }

    // MARK: The container helper

    func test01_loadHelperReturnsALoadedContainer() {
        kata(1, in: "PersistentContainer+Load.swift", "load(name:model:url:)") {
            let model = try GardenModel.make()
            let container = try PersistentContainer.load(name: "Garden", model: model, url: devNull)
            try expect(container.managedObjectModel === model, "load(name:model:url:) returned a container with a "
                + "model of its own, not the one it was given. A container made from the name alone looks the model "
                + "up again: a second copy of every entity (the clash this lesson's last part is about), or, where no "
                + "compiled model has that name, an empty model that fails at the first fetch.")
            let urls = container.persistentStoreCoordinator.persistentStores.compactMap(\.url)
            try expect(urls == [devNull], "load(name:model:url:) returned a container whose store is at "
                + "\(urls.map(\.path)), not at the URL it was given (/dev/null): describe the store with that URL "
                + "and load it before returning.")
            try savePlant("Fern", in: container.viewContext)
            try expect(try plantNames(in: container) == ["Fern"], "a plant saved in the loaded container is not in its store.")

            // The same model under another name: an app with a second store of its own, or the tests' copy of it.
            let other = try PersistentContainer.load(name: "Allotment", model: model, url: devNull)
            try expect(other.name == "Allotment", "load(name: \"Allotment\", model:url:) returned a container named "
                + "\"\(other.name)\": the helper drops an argument its caller passed. On Apple platforms a container's "
                + "name is also what it calls its store by default; a helper that gives every container one name "
                + "hides which container, and which store, a log line or a crash report is about.")
        }
    }

    func test02_loadHelperThrowsTheLoadError() {
        kata(2, in: "PersistentContainer+Load.swift", "load(name:model:url:)") {
            let blocked = try blockedLocation()
            let error = try expectError(CocoaError.self, "load(name:model:url:) must throw the error "
                + "loadPersistentStores reports for \(blocked.store.path), where no store can be made.") {
                _ = try PersistentContainer.load(name: "Garden", model: try GardenModel.make(), url: blocked.store)
            }
            let expected = try storeError(at: blocked.store)
            try expect((error as NSError).domain == expected.domain && error.code.rawValue == expected.code,
                       "load(name:model:url:) threw error \(error.code.rawValue) (\(error.localizedDescription)); "
                       + "expected the error loadPersistentStores reported, unchanged: \(expected.domain) "
                       + "\(expected.code).")
        }
    }

    // MARK: The storage provider

    func test03_inMemoryProviderStartsEmptyAndKeepsToItself() {
        kata(3, in: "StorageProvider.swift", "init(modelName:location:)") {
            let first = try StorageProvider(location: .inMemory)
            try first.loadStores()
            let urls = first.container.persistentStoreCoordinator.persistentStores.compactMap(\.url)
            try expect(urls == [devNull], "an in-memory StorageProvider's store is at \(urls.map(\.path)), not "
                + "/dev/null: describe the store at location.url.")
            let types = first.container.persistentStoreCoordinator.persistentStores.map(\.type)
            try expect(types == [NSSQLiteStoreType], "an in-memory StorageProvider's store is of type \(types), not "
                + "SQLite. On Apple platforms Core Data's in-memory store type is not SQLite, so previews and tests on "
                + "it do not behave as the app's store does; an SQLite store at /dev/null is in memory too.")
            try savePlant("Fern", in: first.viewContext)
            let second = try StorageProvider(location: .inMemory)
            try second.loadStores()
            let seen = try plantNames(in: second.container)
            try expect(seen.isEmpty, "a second in-memory provider sees \(seen) saved by the first; in memory "
                + "means a private store per container.")
        }
    }

    func test04_persistedProviderKeepsDataBetweenLaunches() {
        kata(4, in: "StorageProvider.swift", "init(modelName:location:)") {
            let url = try temporaryFolder().appendingPathComponent("Garden.sqlite")
            do {
                let provider = try StorageProvider(location: .persisted(url))
                try provider.loadStores()
                try savePlant("Fern", in: provider.viewContext)
            }
            try expect(FileManager.default.fileExists(atPath: url.path), "a persisted provider did not create "
                + "its store file at \(url.path).")
            let relaunched = try StorageProvider(location: .persisted(url))
            try relaunched.loadStores()
            let names = try plantNames(in: relaunched.container)
            try expect(names == ["Fern"], "after a relaunch the persisted store holds \(names), not [\"Fern\"].")
        }
    }

    // MARK: Load errors

    func test05_unknownModelNameIsAnErrorNotACrash() {
        kata(5, in: "StorageProvider.swift", "model(named:)") {
            let error = try expectError(StorageError.self, "StorageProvider(modelName: \"Gardn\") must throw "
                + "StorageError.modelNotFound: there is no model of that name.") {
                _ = try StorageProvider(modelName: "Gardn", location: .inMemory)
            }
            guard case .modelNotFound(let name, let available) = error else {
                return try expect(false, "a misspelt model name threw \(error), not StorageError.modelNotFound.")
            }
            try expect(name == "Gardn" && available == ModelBundle.main.modelNames, "modelNotFound should carry the "
                + "name that was asked for (\"Gardn\", got \"\(name)\") and the names the bundle has, "
                + "\(ModelBundle.main.modelNames) (got \(available)): ask the bundle, so that the list is right "
                + "whatever models the app ships.")
        }
    }

    func test06_unwritableLocationIsReportedNotFatal() {
        kata(6, in: "StorageProvider.swift", "loadStores()") {
            let blocked = try blockedLocation()
            let provider = try StorageProvider(location: .persisted(blocked.store))
            let error = try expectError(StorageError.self, "loadStores() must throw StorageError.storeUnavailable "
                + "when the store cannot be made at \(blocked.store.path).") {
                try provider.loadStores()
            }
            guard case .storeUnavailable(let url, let underlying) = error else {
                return try expect(false, "an unwritable location threw \(error), not StorageError.storeUnavailable.")
            }
            try expect(url == blocked.store, "storeUnavailable names \(url.path); it should name the store's URL, "
                + "\(blocked.store.path).")
            let expected = try storeError(at: blocked.store)
            let carried = underlying as NSError
            try expect(carried.domain == expected.domain && carried.code == expected.code, "storeUnavailable should "
                + "carry the error loadPersistentStores reported (\(expected.domain) \(expected.code)), unchanged; "
                + "it carries \(underlying).")

            // A store file that is there and will not open (damaged, or written by something this app cannot
            // read) is still the user's data: the failed load must leave it as it was.
            let file = try temporaryFolder().appendingPathComponent("Garden.sqlite")
            let contents = Data("the user's garden, in a form this version cannot open".utf8)
            try contents.write(to: file)
            let unreadable = try StorageProvider(location: .persisted(file))
            let refusal = try expectError(StorageError.self, "loadStores() must throw StorageError.storeUnavailable "
                + "when the store file at \(file.path) cannot be opened; it returned normally.") {
                try unreadable.loadStores()
            }
            try expect(FileManager.default.contents(atPath: file.path) == contents, "loadStores() threw \(refusal), "
                + "but the store file it could not open is no longer as it was: it was deleted or written over. "
                + "That file is the user's data; on a device, deleting a store that will not open turns one bad "
                + "launch into every record lost. Report the error and leave the file alone.")
        }
    }

    func test07_retrySucceedsOnceTheLocationIsWritable() {
        kata(7, in: "StorageProvider.swift", "loadStores()") {
            let blocked = try blockedLocation()
            let provider = try StorageProvider(location: .persisted(blocked.store))
            do {
                try provider.loadStores()
            } catch is StorageError {
                // Expected: kata 6 is about this error.
            }
            // What was in the way goes away, as a locked device's files become readable again.
            try FileManager.default.removeItem(at: blocked.file)
            try FileManager.default.createDirectory(at: blocked.file, withIntermediateDirectories: true)
            try provider.loadStores()
            let urls = provider.container.persistentStoreCoordinator.persistentStores.compactMap(\.url)
            try expect(urls == [blocked.store], "after a failed load and a retry, the provider's store is at "
                + "\(urls.map(\.path)), not at \(blocked.store.path): a second loadStores() must load the store again.")
            try savePlant("Fern", in: provider.viewContext)
            try expect(try plantNames(in: provider.container) == ["Fern"], "a plant saved after the retry is not in the store.")
        }
    }

    // MARK: One model

    /// What each of several threads got back, collected under a lock.
    private final class ConcurrentResults: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result<ManagedObjectModel, any Error>] = []
        func add(_ result: Result<ManagedObjectModel, any Error>) { lock.lock(); results.append(result); lock.unlock() }
        var all: [Result<ManagedObjectModel, any Error>] { lock.lock(); defer { lock.unlock() }; return results }
    }

    func test08_everyContainerOfAModelSharesOneModel() {
        kata(8, in: "StorageProvider.swift", "model(named:)") {
            // Four callers ask for a model nobody has asked for yet, all at once, while reading a model takes a
            // moment (as reading a .momd does): one instance must come back to all of them.
            ModelBundle.readingTime = 0.2
            defer { ModelBundle.readingTime = 0 }
            let results = ConcurrentResults()
            let start = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            for _ in 0..<4 {
                finished.enter()
                Thread.detachNewThread {
                    start.wait()
                    results.add(Result { try StorageProvider.model(named: "Bookshelf") })
                    finished.leave()
                }
            }
            let readsBefore = ModelBundle.reads(of: "Bookshelf")
            for _ in 0..<4 { start.signal() }
            try expect(finished.wait(timeout: .now() + 10) == .success, "four callers of model(named:) at once did "
                + "not all return within ten seconds: does a caller wait for a lock that is never released?")
            let reads = ModelBundle.reads(of: "Bookshelf") - readsBefore
            try expect(readsBefore > 0 || reads == 1, reads == 0
                ? "four callers asking for the Bookshelf model got a model that was never read from the bundle "
                    + "(ModelBundle.main, this workbook's stand-in for the app's compiled models): read it from there, "
                    + "by the name asked for."
                : "four callers asking for the Bookshelf model at the same moment read it from the bundle \(reads) "
                    + "times: each found the cache empty and read the model itself. Hold the lock from the look-up to "
                    + "the store in the cache, so the second caller waits and finds the first one's model.")
            let models = try results.all.map { try $0.get() }
            let distinct = Set(models.map(ObjectIdentifier.init)).count
            try expect(distinct == 1, "four callers asking for the Bookshelf model at the same moment got \(distinct) "
                + "different instances: each found the cache empty and read the model itself. Hold the lock from "
                + "the look-up to the store in the cache, so the second caller waits and finds the first one's model.")
            let once = try StorageProvider.model(named: "Garden")
            let twice = try StorageProvider.model(named: "Garden")
            try expect(once === twice, "model(named: \"Garden\") returned two different instances: read the model "
                + "once and keep it, or every container gets its own copy of each entity.")
            let first = try StorageProvider(location: .inMemory)
            let second = try StorageProvider(location: .inMemory)
            try expect(first.container.managedObjectModel === second.container.managedObjectModel
                        && first.container.managedObjectModel === once,
                       "two providers of the Garden model have different model instances; make their containers "
                        + "with model(named:).")
            let bookshelf = try StorageProvider.model(named: "Bookshelf")
            try expect(bookshelf !== once && bookshelf.entitiesByName["Book"] != nil,
                       "model(named: \"Bookshelf\") must give the Bookshelf model, not the Garden one.")

            // A model the app added later, asked for twice: no other kata names it.
            let orchardReads = ModelBundle.reads(of: OrchardModel.name)
            let added: ManagedObjectModel
            do { added = try StorageProvider.model(named: OrchardModel.name) } catch {
                return try expect(false, "model(named: \"\(OrchardModel.name)\") threw \(error), yet the bundle has that "
                    + "model (\(ModelBundle.main.modelNames)). It works for the names it was written for only: an app "
                    + "that adds a model to its bundle could not use it. Find the model by the name you are asked for.")
            }
            let again = try StorageProvider.model(named: OrchardModel.name)
            let orchardRead = ModelBundle.reads(of: OrchardModel.name) - orchardReads
            try expect(added === again && added.entitiesByName["Tree"] != nil && orchardRead <= 1,
                       "model(named: \"\(OrchardModel.name)\"), asked twice, "
                        + (added === again ? "" : "gave two different instances, ")
                        + "read the bundle \(orchardRead) times"
                        + (added.entitiesByName["Tree"] == nil ? " and did not give the Orchard model" : "")
                        + ": one read, one instance, for any model the bundle has, however often it is asked for.")
        }
    }
}
