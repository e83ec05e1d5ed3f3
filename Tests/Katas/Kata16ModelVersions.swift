import Foundation
import KataSupport
@_spi(ModelBuilding) import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 16 — Changing the model: versions and migration. A bird log app shipped version 1 of its model; version 2
/// renames `notes` to `remarks` and keeps their values (kata 1) and gives old sightings a place (2); version 3 adds a
/// key a custom migration stage computes from old data, reached from a store of either earlier version (3); the app
/// migrates a store in place as it loads it (4); a migration test starts from a real version 1 store (5); a store
/// the app cannot migrate is reported and kept (6).
///
/// Every kata works on store files in a folder of its own; the stores are the kata's, written with the model it
/// names, except in kata 5, where the learner's fixture writes one.
final class Kata16ModelVersions: KataCase {
    override class var lesson: Int { 16 }
    override class var folder: String { "16-model-versions" }
    override class func makeModel() throws -> ManagedObjectModel { try BirdLogVersion1.model() }

    /// Sightings the app's first release saved: with notes and without, and a species with an accent.
    private let firstRelease = [
        OldSighting(species: "Grey Heron", count: 1, notes: "by the canal", seenAt: day(2)),
        OldSighting(species: "Gänsegeier", count: 12, notes: nil, seenAt: day(5)),
        OldSighting(species: "Eurasian Blue Tit", count: 2, notes: "nest box 4", seenAt: day(9)),
    ]

    private var folders: [URL] = []

    override func tearDownWithError() throws {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        folders = []
        try super.tearDownWithError()
    }

    // MARK: Store files the kata writes and reads itself

    /// A store URL in a new folder of this kata's own.
    private func newStoreURL(_ name: String = "BirdLog.sqlite") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kata16-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        return folder.appendingPathComponent(name)
    }

    /// A loaded container on the file at `url` with `model`; no migration, unless `stages` are given.
    private func open(_ url: URL, with model: ManagedObjectModel,
                      stages: [MigrationStage]? = nil) throws -> PersistentContainer {
        let container = PersistentContainer(name: BirdLogVersion1.name, managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        if let stages {
            description.setOption(StagedMigrationManager(stages), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        } else {
            description.shouldMigrateStoreAutomatically = false
        }
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Writes a store of `model` at `url` holding `rows` (values by key), closes it, and returns the objects' URIs.
    @discardableResult
    private func writeStore(at url: URL, model: ManagedObjectModel, _ rows: [[String: Any?]]) throws -> [URL] {
        let container = try open(url, with: model)
        let context = container.viewContext
        let objects = rows.map { values in
            let object = EntityDescription.insertNewObject(forEntityName: "Sighting", into: context)
            for (key, value) in values { object.setValue(value ?? nil, forKey: key) }
            return object
        }
        try context.save()
        let uris = objects.map { $0.objectID.uriRepresentation() }
        try close(container)
        return uris
    }

    /// A store of `model` whose `last` sighting is still in SQLite's write-ahead log (`-wal`), as a store is on a
    /// device after the app was stopped mid-use: written while the app had it open, before SQLite copied the
    /// log into the store file.
    private func storeWithWritesInItsLog(model: ManagedObjectModel, first: [String: Any?],
                                         last: [String: Any?]) throws -> URL {
        let source = try newStoreURL("Source.sqlite")
        try writeStore(at: source, model: model, [first])
        let open = try open(source, with: model)
        let context = open.viewContext
        let object = EntityDescription.insertNewObject(forEntityName: "Sighting", into: context)
        for (key, value) in last { object.setValue(value ?? nil, forKey: key) }
        try context.save()
        // The files as they are now, the log included; the open store is then closed without touching the copy.
        let url = source.deletingLastPathComponent().appendingPathComponent("BirdLog.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: url.path + suffix)
        }
        try close(open)
        let log = (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0
        try expect(log > 0, "the kata's store has no write-ahead log to keep: the kata cannot set up its store.")
        return url
    }

    private func close(_ container: PersistentContainer) throws {
        let coordinator = container.persistentStoreCoordinator
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    /// The first release's sightings as version 1 stores them.
    private func version1Rows(_ sightings: [OldSighting]) -> [[String: Any?]] {
        sightings.map { ["species": $0.species, "count": $0.count, "notes": $0.notes, "seenAt": $0.seenAt] }
    }

    /// Every sighting of the store `container` has loaded, as values by key, sorted by species (read on a
    /// background context, so it is what the store holds).
    private func sightings(in container: PersistentContainer) throws -> [[String: Any]] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Sighting")
            request.sortDescriptors = [FetchSortDescriptor(key: "species", ascending: true)]
            let keys = container.managedObjectModel.entitiesByName["Sighting"].map { Array($0.attributesByName.keys) } ?? []
            return try reader.fetch(request).map { object in
                Dictionary(uniqueKeysWithValues: keys.compactMap { key in object.value(forKey: key).map { (key, $0) } })
            }
        }
    }

    private func metadata(at url: URL) throws -> [String: Any] {
        try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    }

    /// The store file's version, among the models the kata knows.
    private func version(of url: URL, among versions: [(String, ManagedObjectModel)]) throws -> String {
        let stored = try metadata(at: url)
        return versions.first { $0.1.isConfiguration(withName: nil, compatibleWithStoreMetadata: stored) }?.0
            ?? "none of versions \(versions.map(\.0).joined(separator: ", "))"
    }

    /// `value` as the kata prints it.
    private func show(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let string as String: return "\"\(string)\""
        case let some?: return "\(some)"
        }
    }

    /// A Persistence (or Core Data) error's code, if it is one.
    private func code(of error: any Error) -> Int? {
        error is KataNotDone || error is KataStop ? nil : (error as NSError).code
    }

    /// Migrates the store at `url` from version 1 to `version2` the manual way — an inferred mapping and a
    /// migration manager, into a new file — and returns the new file's sightings. Errors that come from the model
    /// are explained.
    private func migrateByHand(_ url: URL, to version2: ManagedObjectModel) throws -> [[String: Any]] {
        let version1 = try BirdLogVersion1.model()
        let mapping: MappingModel
        do {
            mapping = try MappingModel.inferredMappingModel(forSourceModel: version1, destinationModel: version2)
        } catch {
            try expect(false, "no mapping can be inferred from version 1 to your version 2: \(error). Version 2 may "
                + "only make lightweight changes to version 1: rename, add, remove.")
            throw error
        }
        let target = url.deletingLastPathComponent().appendingPathComponent("Migrated.sqlite")
        do {
            try MigrationManager(sourceModel: version1, destinationModel: version2)
                .migrateStore(from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                              toDestinationURL: target, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        } catch {
            try explainMigrationFailure(error)
            throw error
        }
        let migrated = try open(target, with: version2)
        defer { try? close(migrated) }
        return try sightings(in: migrated)
    }

    /// Fails the kata with what a migration error means for this model, when it is one the lesson explains, and
    /// names the file where its cause is (which may not be the function the kata is about).
    private func explainMigrationFailure(_ error: any Error, filePath: StaticString = #filePath,
                                         line: UInt = #line) throws {
        let key = (error as NSError).userInfo[NSValidationKeyErrorKey] as? String ?? ""
        let message = error.localizedDescription
        let what: String
        let file: String
        switch code(of: error) {
        case 134_110 where key == "place":
            what = "migrating the first release's sightings failed (134110, \(message)). Version 2 makes place "
                + "mandatory, and not one sighting saved before version 2 has a place: a mandatory attribute that "
                + "old rows lack needs a default value in the model, which the migration writes into every old row "
                + "(Sighting.unrecordedPlace)."
            file = "BirdLogVersions.swift, version2()"
        case 134_020 where message.contains("speciesKey"):
            what = "a custom stage's handler could not set speciesKey (\(message)). A stage's willMigrateHandler "
                + "runs before the step, with the manager's container on the stage's OLD model; its "
                + "didMigrateHandler runs after it, on the stage's new model. speciesKey exists only in version 3: "
                + "in the didMigrateHandler of the stage whose step ends on version 3."
            file = "BirdLogMigration.swift, stages()"
        case 134_130:
            what = "the store could not be migrated (134130, \(message)). None of the versions the migration knows "
                + "wrote it: the stages must cover every version a user may still have, from version 1 on, one step "
                + "after another (a user who skipped version 2 has a version 1 store; one who installed it has a "
                + "version 2 store)."
            file = "BirdLogMigration.swift, stages()"
        default:
            return
        }
        let parts = file.components(separatedBy: ", ")
        fail(what, file: "Sources/Workbook/\(Self.folder)/\(parts[0])", function: parts[1], filePath: filePath,
             line: line)
        throw KataStop()
    }

    // MARK: Version 2: lightweight changes

    func test01_version2KeepsTheNotesAsRemarks() {
        kata(1, in: "BirdLogVersions.swift", "version2()") {
            let version2 = try BirdLogVersions.version2()
            let entity = try require(version2.entitiesByName["Sighting"], "your version 2 has no entity Sighting "
                + "(its entities: \(version2.entities.map(\.name))); keep version 1's entity and its name.")
            try expect(entity.attributesByName["remarks"] != nil, "your version 2's Sighting has no attribute "
                + "remarks (its attributes: \(entity.attributesByName.keys.sorted())).")
            try expect(entity.attributesByName["notes"] == nil, "your version 2 still has notes beside remarks: a "
                + "rename replaces the old name, it does not add a second attribute.")
            try expect(try BirdLogVersions.version2() === version2, "version2() returned another model on its "
                + "second call. The app, its migration stages and its tests must all mean one model of each "
                + "version: build it once and return that instance at every call.")
            let url = try newStoreURL()
            try writeStore(at: url, model: try BirdLogVersion1.model(), version1Rows(firstRelease))
            let migrated = try migrateByHand(url, to: version2)
            let remarks = migrated.map { "\($0["species"] ?? "?"): \(show($0["remarks"]))" }
            let notes = firstRelease.sorted { $0.species < $1.species }.map { "\($0.species): \(show($0.notes))" }
            try expect(remarks == notes, "after migrating the first release's store to your version 2, the remarks "
                + "are \(remarks); the notes were \(notes). Renamed by name alone, remarks is a new attribute and "
                + "notes a removed one, and the values go with notes. Give remarks a renaming identifier — the "
                + "name the attribute had in version 1 (Xcode's Renaming ID) — so the migration carries them over.")
        }
    }

    func test02_version2GivesOldSightingsAPlace() {
        kata(2, in: "BirdLogVersions.swift", "version2()") {
            let version2 = try BirdLogVersions.version2()
            let place = try require(version2.entitiesByName["Sighting"]?.attributesByName["place"], "your version "
                + "2's Sighting has no attribute place.")
            try expect(!place.isOptional, "your version 2's place is optional. Every sighting has a place from now "
                + "on: make it mandatory, so a save without one fails, and give the sightings saved before it a "
                + "value through the model.")
            let url = try newStoreURL()
            try writeStore(at: url, model: try BirdLogVersion1.model(), version1Rows(firstRelease))
            let migrated = try migrateByHand(url, to: version2)
            try expect(migrated.count == firstRelease.count, "the migrated store holds \(migrated.count) sightings; "
                + "the first release saved \(firstRelease.count).")
            let places = migrated.map { show($0["place"]) }
            try expect(places.allSatisfy { $0 == show(Sighting.unrecordedPlace) }, "after migrating to your "
                + "version 2, the old sightings' places are \(places), not \(show(Sighting.unrecordedPlace)): "
                + "the migration gives a new mandatory attribute the model's default value in every old row — "
                + "set it to Sighting.unrecordedPlace.")
        }
    }

    // MARK: Version 3: a custom stage

    func test03_version3FillsSpeciesKeysInACustomStage() {
        kata(3, in: "BirdLogMigration.swift", "stages()") {
            let version2 = try BirdLogVersions.version2()
            let version3 = try BirdLogVersions.version3()
            try expect(try BirdLogVersions.version3() === version3, "version3() returned another model on its "
                + "second call. On Core Data, two live models whose entities both claim the class Sighting make "
                + "the entity of that class ambiguous (the console warns that multiple entity descriptions claim "
                + "the subclass): build the model once and return that instance at every call.")
            let fromFirstRelease = try newStoreURL()
            try writeStore(at: fromFirstRelease, model: try BirdLogVersion1.model(), version1Rows(firstRelease))
            let fromSecondRelease = try newStoreURL()
            try writeStore(at: fromSecondRelease, model: version2, [
                ["species": "Common Chiffchaff", "count": 1, "remarks": "singing", "place": "orchard", "seenAt": day(20)],
                ["species": "Rotmilan", "count": 2, "remarks": nil, "place": "ridge", "seenAt": day(21)],
                ["species": "Weißstorch", "count": 4, "remarks": "on the church", "place": "village", "seenAt": day(22)],
            ])
            let secondSpecies = ["Common Chiffchaff", "Rotmilan", "Weißstorch"]
            for (url, release, species) in [(fromFirstRelease, "first", firstRelease.map(\.species)),
                                            (fromSecondRelease, "second", secondSpecies)] {
                let container: PersistentContainer
                do {
                    container = try open(url, with: version3, stages: try BirdLogMigration.stages())
                } catch {
                    try explainMigrationFailure(error)
                    try expect(false, "the store of the app's \(release) release did not load with version 3 and "
                        + "your stages: \(error)")
                    throw error
                }
                defer { try? close(container) }
                let found = try sightings(in: container)
                try expect(found.map { $0["species"] as? String ?? "?" } == species.sorted(), "after migrating "
                    + "the \(release) release's store, the sightings are \(found.map { show($0["species"]) }), not "
                    + "\(species.sorted()).")
                let keys = found.map { show($0["speciesKey"]) }
                let expected = species.sorted().map { show(Sighting.speciesKey(for: $0)) }
                try expect(!keys.allSatisfy { $0 == show("") }, "after migrating the \(release) release's store to "
                    + "version 3, every speciesKey is empty: a lightweight step gives a new attribute its default "
                    + "and nothing more. Computing it from species is what a custom stage is for: fill it in the "
                    + "stage that reaches version 3, while the store is being migrated — and save the handler's "
                    + "context before the handler returns (or write with a batch request), or what it set is lost "
                    + "with it.")
                try expect(keys == expected, "after migrating the \(release) release's store, the species keys are "
                    + "\(keys), not \(expected): each is Sighting.speciesKey(for:) of its own sighting's species. A "
                    + "key folded another way (lowercased, accents stripped) differs for some names — \"Weißstorch\" "
                    + "folds to \"weissstorch\" — and a search that folds its text with speciesKey(for:) then misses "
                    + "those birds.")
            }
        }
    }

    // MARK: Opening the store in the app

    func test04_loadingMigratesTheStoreInPlaceWithTheFlagsOn() {
        kata(4, in: "BirdLogStore.swift", "load(at:)") {
            let url = try newStoreURL()
            try writeStore(at: url, model: try BirdLogVersion1.model(), version1Rows(firstRelease))
            let (container, saves): (PersistentContainer, [SaveRecord])
            do {
                (container, saves) = try recordingSaves { try BirdLogStore.load(at: url) }
            } catch {
                switch code(of: error) {
                case 134_100:
                    try expect(false, "loading a store of the first release failed with 134100: the store was "
                        + "written with another version of the model, and automatic migration is off. Leave "
                        + "shouldMigrateStoreAutomatically (and shouldInferMappingModelAutomatically) true, as they "
                        + "are by default.")
                case 134_130:
                    try expect(false, "loading a store of the first release failed with 134130: no version of the "
                        + "model the load knows wrote it. Versions made in code are in no bundle where Core Data "
                        + "could look them up: the description needs a StagedMigrationManager with your stages, under "
                        + "NSPersistentStoreStagedMigrationManagerOptionKey — stages that start at version 1 "
                        + "(kata 3). (\(error))")
                default:
                    try explainMigrationFailure(error)
                }
                throw error
            }
            defer { try? close(container) }
            let store = try require(container.persistentStoreCoordinator.persistentStores.first, "load(at:) returned "
                + "a container with no store loaded; return it once loadPersistentStores has loaded the store, and "
                + "throw its error if not.")
            try expect(store.url?.standardizedFileURL.path == url.standardizedFileURL.path, "the container's store "
                + "is at \(store.url?.path ?? "nil"), not at \(url.path), the file load(at:) was asked to open.")
            let options = store.options ?? [:]
            let migrate = options[NSMigratePersistentStoresAutomaticallyOption]
            let infer = options[NSInferMappingModelAutomaticallyOption]
            try expect(migrate as? Bool == true && infer as? Bool == true, "the store was loaded with "
                + "shouldMigrateStoreAutomatically \(show(migrate)) and shouldInferMappingModelAutomatically "
                + "\(show(infer)): leave both on, as Apple's set-up for a staged migration does.")
            try expect(options[NSPersistentStoreStagedMigrationManagerOptionKey] is StagedMigrationManager,
                       "the store was loaded without a StagedMigrationManager under "
                           + "NSPersistentStoreStagedMigrationManagerOptionKey: set one with your stages on the "
                           + "description.")
            let version3 = try BirdLogVersions.version3()
            try expect(container.managedObjectModel.versionChecksum == version3.versionChecksum, "the container's "
                + "model is not your version 3, the current one: the app opens its store with the current version.")
            try expect(version3.isConfiguration(withName: nil, compatibleWithStoreMetadata: try metadata(at: url)),
                       "after loading, the file at \(url.lastPathComponent) is not a version 3 store.")
            let inserted = saves.reduce(0) { $0 + $1.inserted }
            try expect(inserted == 0, "while load(at:) ran, contexts saved \(inserted) new objects: the store was "
                + "built again by copying its objects in Swift. A lightweight migration changes the file where it "
                + "is, in SQL, without loading one object (Apple: \"in situ\", \"solely by issuing SQL "
                + "statements\"); copying holds every object in memory and makes new objects with new IDs. Let the "
                + "container's load migrate the file.")
            let species = try sightings(in: container).map { $0["species"] as? String ?? "?" }
            try expect(species == firstRelease.map(\.species).sorted(), "after loading, the store holds the sightings "
                + "\(species), not the first release's \(firstRelease.map(\.species).sorted()).")
            // The next launch: the file is on version 3 already, and opening it has nothing to write.
            try close(container)
            let (relaunched, relaunchSaves) = try recordingSaves { try BirdLogStore.load(at: url) }
            defer { try? close(relaunched) }
            try expect(relaunchSaves.isEmpty, "the store was already on version 3, and loading it again saved "
                + "\(relaunchSaves.count) time(s): work that load(at:) does after every load is a migration that runs "
                + "at every launch, rewriting rows of a store that needs nothing and slowing every start. Leave it to "
                + "the stages, which run only when the store's version needs them.")
        }
    }

    // MARK: Testing a migration

    func test05_theMigrationTestStartsFromARealVersion1Store() {
        kata(5, in: "SightingsFixture.swift", "writeVersion1Store(at:sightings:)") {
            let given = [
                OldSighting(species: "Great Crested Grebe", count: 2, notes: "pair displaying", seenAt: day(30)),
                OldSighting(species: "Bullfinch", count: 3, notes: nil, seenAt: day(31)),
                OldSighting(species: "Œdicnème criard", count: 1, notes: "at dusk", seenAt: day(32)),
            ]
            let url = try newStoreURL()
            try SightingsFixture.writeVersion1Store(at: url, sightings: given)
            try expect(FileManager.default.fileExists(atPath: url.path), "writeVersion1Store(at:sightings:) left "
                + "no store at \(url.path).")
            // SQLite deletes a store's -wal file when the last connection to it closes.
            try expect(!FileManager.default.fileExists(atPath: url.path + "-wal"), "writeVersion1Store(at:sightings:) "
                + "returned with its store still open: there is a \(url.lastPathComponent)-wal file beside it, which "
                + "SQLite removes when the last connection closes. The test then migrates a file another coordinator "
                + "holds, whose last writes are still in that log — on a device a cause of \"database is locked\" and "
                + "of lost writes. Remove the store from the fixture's coordinator before returning.")
            let version = try version(of: url, among: [("1", try BirdLogVersion1.model()),
                                                       ("2", try BirdLogVersions.version2()),
                                                       ("3", try BirdLogVersions.version3())])
            try expect(version == "1", "the fixture wrote a store of version \(version), not version 1. A "
                + "migration test that starts from a store of the current version migrates nothing, and passes "
                + "however broken the migration is: write the store with the first release's model, "
                + "BirdLogVersion1.")
            let expected = given.sorted { $0.species < $1.species }
            do {
                let written = try open(url, with: try BirdLogVersion1.model())
                defer { try? close(written) }
                let rows = try sightings(in: written)
                try expect(!rows.isEmpty, "the fixture's version 1 store holds no sightings: were they inserted "
                    + "and never saved?")
                let found = rows.map { "\(show($0["species"])) ×\(show($0["count"])) \(show($0["notes"]))" }
                let wanted = expected.map { "\(show($0.species)) ×\($0.count) \(show($0.notes))" }
                try expect(found == wanted && rows.map { $0["seenAt"] as? Date } == expected.map { Optional($0.seenAt) },
                           "the fixture's store holds \(found), not \(wanted) (and their dates): write every "
                               + "sighting it is given, with its values.")
            }
            // The test itself: the app opens the old store, and every sighting is there in the current version.
            let app: PersistentContainer
            do {
                app = try BirdLogStore.load(at: url)
            } catch let notDone as KataNotDone {
                throw notDone
            } catch {
                try explainMigrationFailure(error)
                fail("the fixture's store is a good version 1 store, but the app could not open it: \(error). "
                     + "Kata 4 is about opening it.", file: "Sources/Workbook/\(Self.folder)/BirdLogStore.swift",
                     function: "load(at:)")
                throw KataStop()
            }
            defer { try? close(app) }
            let migrated = try sightings(in: app)
            let found = migrated.map { "\(show($0["species"])) \(show($0["remarks"])) \(show($0["place"])) \(show($0["speciesKey"]))" }
            let wanted = expected.map {
                "\(show($0.species)) \(show($0.notes)) \(show(Sighting.unrecordedPlace)) \(show(Sighting.speciesKey(for: $0.species)))"
            }
            try expect(found == wanted, "opened by the app, the fixture's store holds \(found) (species, remarks, "
                + "place, species key), not \(wanted): the migration lost or missed something katas 1–3 ask for.")
        }
    }

    // MARK: When migration is not possible

    func test06_aStoreTheAppCannotMigrateIsReportedAndKept() {
        kata(6, in: "BirdLogStore.swift", "load(at:)") {
            // A later version of the app (a TestFlight build, say) wrote this store; the user went back to this one.
            let version4 = try ManagedObjectModel(entities: [
                EntityDescription(name: "Sighting", properties: [
                    .attribute("species", .string, optional: false),
                    .attribute("count", .integer16, optional: false, defaultValue: 1),
                    .attribute("remarks", .string),
                    .attribute("place", .string, optional: false, defaultValue: "unrecorded"),
                    .attribute("seenAt", .date, optional: false),
                    .attribute("speciesKey", .string, optional: false, defaultValue: ""),
                    .attribute("ringNumber", .string),
                ]),
            ])
            let url = try storeWithWritesInItsLog(model: version4, first: [
                "species": "Osprey", "count": 1, "place": "lake", "seenAt": day(40), "speciesKey": "osprey",
                "ringNumber": "DER A 1234",
            ], last: [
                "species": "Kingfisher", "count": 1, "place": "mill race", "seenAt": day(41), "speciesKey": "kingfisher",
            ])
            let uuid = try metadata(at: url)[NSStoreUUIDKey] as? String
            var loaded: PersistentContainer?
            do {
                loaded = try BirdLogStore.load(at: url)
            } catch let notDone as KataNotDone {
                throw notDone
            } catch {
                // Reported: the kata goes on to check that the file is as it was.
            }
            if let loaded { try? close(loaded) }
            let kept = try? open(url, with: version4)
            defer { if let kept { try? close(kept) } }
            let left = try kept.map { try sightings(in: $0) } ?? []
            try expect(left.count == 2 && (try? metadata(at: url)[NSStoreUUIDKey] as? String) == uuid,
                       "load(at:) was given a store a later version of the app wrote, which it cannot migrate, and "
                           + "afterwards the file holds \(left.count) of its 2 sightings"
                           + (loaded == nil ? "" : " (and load(at:) returned a container, as if all was well)")
                           + ". Deleting the store to get past a load error deletes the user's data: a newer "
                           + "version, or the backup the user restores next, could still have read it. So does "
                           + "deleting its -wal and -shm files: the store's last writes are in the -wal file until "
                           + "SQLite copies them into the store file, and here the Kingfisher still was. Throw the "
                           + "error and leave every file alone.")
            try expect(loaded == nil, "load(at:) returned a container for a store it could not load: throw the "
                + "error loadPersistentStores reports, so the app can tell the user.")
        }
    }
}

/// One save seen during a migration: the version of the saving context's model, its coordinator, and how many
/// objects it inserted.
private struct SaveRecord: Sendable {
    let checksum: String
    let coordinator: ObjectIdentifier
    let inserted: Int
}

/// The saves made anywhere while `body` runs.
private func recordingSaves<T>(_ body: () throws -> T) rethrows -> (T, [SaveRecord]) {
    let log = SaveLog()
    let observer = NotificationCenter.default.addObserver(
        forName: ManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil
    ) { note in
        // Posted on the saving context's queue; the objects are counted, never read.
        guard let coordinator = (note.object as? ManagedObjectContext)?.persistentStoreCoordinator else { return }
        let inserted = note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
        log.add(SaveRecord(checksum: coordinator.managedObjectModel.versionChecksum,
                           coordinator: ObjectIdentifier(coordinator), inserted: inserted?.count ?? 0))
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    let result = try body()
    return (result, log.records)
}

/// Saves a notification observer records, from any thread.
private final class SaveLog: @unchecked Sendable {
    private let lock = NSLock()
    private var saved: [SaveRecord] = []

    func add(_ record: SaveRecord) { lock.withLock { saved.append(record) } }
    var records: [SaveRecord] { lock.withLock { saved } }
}

/// Noon on the `n`th day of April 2024, UTC.
private func day(_ n: Int) -> Date {
    Date(timeIntervalSince1970: 1_711_929_600 + Double(n - 1) * 86_400 + 43_200)
}
