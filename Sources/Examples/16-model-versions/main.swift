import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) import Persistence

// Lesson 16's runnable example: a running log whose model, drawn in Xcode's format, has three versions
// (Runs.xcdatamodeld). A store remembers the version that wrote it; opened with another version it is refused
// (134100) or migrated; a store no version of the app wrote cannot be (134130); a mapping can be inferred, checked
// and run by hand; a staged migration prepares the data for a step in a custom stage; and a migration test starts
// from a real old store. `swift run lessons run 16`.

guard let modelFile = Bundle.module.url(forResource: "Runs", withExtension: "xcdatamodeld") else {
    print("Runs.xcdatamodeld is missing from the example's resources.")
    exit(1)
}
let work = FileManager.default.temporaryDirectory.appendingPathComponent("lesson16-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

/// A new store file's URL in the example's folder.
func newStore(_ name: String) -> URL {
    work.appendingPathComponent("\(name).sqlite")
}

/// A loaded container of `model` on the store at `url`; `describe` adjusts the store description first.
func openStore(_ url: URL, _ model: ManagedObjectModel,
               _ describe: (PersistentStoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
    let runs = PersistentContainer(name: "Runs", managedObjectModel: model)
    let description = PersistentStoreDescription(url: url)
    describe(description)
    runs.persistentStoreDescriptions = [description]
    nonisolated(unsafe) var outcome: Result<Void, any Error> = .success(())
    runs.loadPersistentStores { _, error in
        if let error { outcome = .failure(error) }
    }
    try outcome.get()
    return runs
}

/// Closes the container's stores, so the file can be migrated or replaced.
func closeStores(of container: PersistentContainer) {
    let coordinator = container.persistentStoreCoordinator
    for store in coordinator.persistentStores { try? coordinator.remove(store) }
}

/// Three runs as the first version of the app saved them, one without a note (`noteKey`: the note's name in the
/// version the context is on; `missingNote`: what a version that requires one saves instead of nil).
func saveFirstRuns(in context: ManagedObjectContext, noteKey: String = "note", missingNote: String? = nil) throws {
    for (day, kilometres, minutes, note) in [(3, 5.0, 27, "easy"), (5, 10.0, 58, nil), (8, 7.5, 36, "hills")] {
        let run = EntityDescription.insertNewObject(forEntityName: "Run", into: context)
        run.setValue(Date(timeIntervalSince1970: Double(day) * 86_400), forKey: "date")
        run.setValue(kilometres, forKey: "distance")
        run.setValue(minutes, forKey: "minutes")
        run.setValue(note ?? missingNote, forKey: noteKey)
    }
    try context.save()
}

/// Each run of the store as one line: `keys` of it, in order.
func describeRuns(in container: PersistentContainer, _ keys: [String]) throws -> [String] {
    let request = FetchRequest<ManagedObject>(entityName: "Run")
    request.sortDescriptors = [FetchSortDescriptor(key: "date", ascending: true)]
    return try container.viewContext.fetch(request).map { run in
        keys.map { key -> String in
            switch run.value(forKey: key) {
            case nil: return "\(key) nil"
            case let text as String: return "\(key) \"\(text)\""
            case let number as Double: return "\(key) \(String(format: "%.2f", number))"
            case let some?: return "\(key) \(some)"
            }
        }.joined(separator: ", ")
    }
}

/// The first bytes of a version hash, in hex.
func short(_ hash: Data?) -> String {
    (hash ?? Data()).prefix(4).map { String(format: "%02x", $0) }.joined() + "…"
}

/// A Persistence error as its code and its first sentence.
func brief(_ error: any Error) -> String {
    let message = (error as NSError).localizedDescription
    let end = [message.range(of: ". "), message.range(of: ": ")].compactMap { $0?.lowerBound }.min()
    return "\((error as NSError).code): \(end.map { String(message[..<$0]) } ?? message)"
}

print("1. Three versions of one model")
// region: versions
let versionURLs = try ManagedObjectModel.versionURLs(ofModelAt: modelFile)
let versions = try versionURLs.map { try ManagedObjectModel(contentsOf: $0, managedObjectClasses: []) }
let current = try ManagedObjectModel(contentsOf: modelFile, managedObjectClasses: [])   // .xccurrentversion's
for (url, version) in zip(versionURLs, versions) {
    let run = version.entitiesByName["Run"]
    let isCurrent = version.versionChecksum == current.versionChecksum ? "  ← current" : ""
    print("   \(url.lastPathComponent): Run \(short(run?.versionHash)), "
          + "attributes \(run?.attributesByName.keys.sorted() ?? [])\(isCurrent)")
}
// endregion: versions
let (v1, v2, v3) = (versions[0], versions[1], versions[2])

print("")
print("2. A store remembers the version that wrote it")
let firstStore = newStore("first")
do {
    let firstApp = try openStore(firstStore, v1)
    try saveFirstRuns(in: firstApp.viewContext)
    closeStores(of: firstApp)
}
// region: metadata
let stored = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: firstStore)
let hashes = stored[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
print("   the file's metadata: Run \(short(hashes["Run"])), version identifiers "
      + "\(stored[NSStoreModelVersionIdentifiersKey] ?? "none")")
for (name, version) in [("version 1", v1), ("version 2", v2)] {
    let opensAsItIs = version.isConfiguration(withName: nil, compatibleWithStoreMetadata: stored)
    print("   does \(name) open it as it is? \(opensAsItIs)")
}
// endregion: metadata
let firstUUID = stored[NSStoreUUIDKey] as? String

print("")
print("3. Opened with version 2, automatic migration off")
// region: incompatible
do {
    _ = try openStore(firstStore, v2) { $0.shouldMigrateStoreAutomatically = false }
} catch {
    print("   \(brief(error))")
}
// endregion: incompatible

print("")
print("4. Opened with version 2, as a container opens it by default")
// region: lightweight
let secondApp = try openStore(firstStore, v2)
for line in try describeRuns(in: secondApp, ["minutes", "comment", "surface"]) { print("   \(line)") }
let migrated = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: firstStore)
print("   the file is now a version 2 store: "
      + "\(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: migrated)); "
      + "same store UUID: \(migrated[NSStoreUUIDKey] as? String == firstUUID)")
// endregion: lightweight
closeStores(of: secondApp)

print("")
print("5. A store no version of this app wrote")
// region: missing-source
let laterStore = newStore("later")
do {
    let laterApp = try openStore(laterStore, v3)          // a later release, run first (a TestFlight build)
    try saveFirstRuns(in: laterApp.viewContext, noteKey: "comment", missingNote: "(none)")
    closeStores(of: laterApp)
}
do {
    _ = try openStore(laterStore, v2)                    // back on version 2
} catch {
    print("   \(brief(error))")
}
// endregion: missing-source

print("")
print("6. A mapping inferred, checked and run by hand")
// region: not-lightweight
let typeChanged = try ManagedObjectModel(entities: [
    EntityDescription(name: "Run", properties: [
        .attribute("date", .date, optional: false),
        .attribute("distance", .string, optional: false),           // was a Double
        .attribute("minutes", .integer32, optional: false, defaultValue: 0),
        .attribute("note", .string),
    ]),
])
do {
    _ = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: typeChanged)
} catch let error as NSError {
    // "Can't find mapping model for migration: the change to … is not a lightweight one (why). …"
    let why = error.localizedDescription.split(separator: ":", maxSplits: 1).last?.components(separatedBy: ". ").first ?? ""
    print("   distance as a string: \(error.code),\(why)")
}
// endregion: not-lightweight
// region: manual
let mapping = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
let oldCopy = newStore("old-copy")
let upgraded = newStore("upgraded")
do {
    let firstApp = try openStore(oldCopy, v1)
    try saveFirstRuns(in: firstApp.viewContext)
    closeStores(of: firstApp)
}
try MigrationManager(sourceModel: v1, destinationModel: v2)
    .migrateStore(from: oldCopy, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                  toDestinationURL: upgraded, destinationType: NSSQLiteStoreType, destinationOptions: nil)
for (name, url) in [("the source", oldCopy), ("the destination", upgraded)] {
    let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    let version = [("1", v1), ("2", v2)].first { $0.1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
    print("   \(name) is a version \(version?.0 ?? "?") store")
}
// endregion: manual

print("")
print("7. A staged migration with a custom step")
let stagedStore = newStore("staged")
do {
    let firstApp = try openStore(stagedStore, v1)
    try saveFirstRuns(in: firstApp.viewContext)
    closeStores(of: firstApp)
}
// region: staged
// region: custom-stage
// Version 3 makes comment mandatory, with no default: no one word fits every run, and a run without one cannot
// enter version 3. The stage prepares the data before its step, while the store is still on version 2.
let commentRequired = CustomMigrationStage(
    migratingFrom: ManagedObjectModelReference(fileURL: versionURLs[1], versionChecksum: v2.versionChecksum),
    to: ManagedObjectModelReference(fileURL: versionURLs[2], versionChecksum: v3.versionChecksum))
commentRequired.label = "comment, now mandatory"
commentRequired.willMigrateHandler = { manager, _ in
    guard let cleanUp = manager.container?.newBackgroundContext() else { return }
    // One UPDATE statement on version 2's table, no object loaded; the step after it finds no nil left.
    let placeholder = BatchUpdateRequest(entityName: "Run")
    placeholder.predicate = FetchPredicate(format: "comment == nil")
    placeholder.propertiesToUpdate = ["comment": "(none)"]
    placeholder.resultType = .updatedObjectsCountResultType
    let result = try cleanUp.performAndWait { try cleanUp.execute(placeholder) } as? BatchUpdateResult
    print("   willMigrate, on version 2: \(result?.result ?? 0) run(s) had no comment")
}
// endregion: custom-stage
// region: staged-load
let stages: [MigrationStage] = [
    LightweightMigrationStage([v1.versionChecksum, v2.versionChecksum]),
    commentRequired,
]
let thirdApp = try openStore(stagedStore, current) {
    $0.setOption(StagedMigrationManager(stages), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
}
for line in try describeRuns(in: thirdApp, ["comment", "surface"]) { print("   \(line)") }
// endregion: staged-load
// endregion: staged
closeStores(of: thirdApp)

print("")
print("8. A migration test")
// region: migration-test
/// What a test in the app's suite does: write a store the way version 1 did, with data, then open it the way the
/// app opens its store, and check what the users would find.
func version1StoreOpensInTheApp() throws -> Bool {
    let url = newStore("test-\(UUID().uuidString)")
    let oldApp = try openStore(url, v1)
    try saveFirstRuns(in: oldApp.viewContext)
    closeStores(of: oldApp)

    let app = try openStore(url, current) {
        $0.setOption(StagedMigrationManager(stages), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
    }
    defer { closeStores(of: app) }
    let runs = try describeRuns(in: app, ["minutes", "comment"])
    return runs == ["minutes 27, comment \"easy\"", "minutes 58, comment \"(none)\"", "minutes 36, comment \"hills\""]
}
print("   a version 1 store, opened by the current app: \(try version1StoreOpensInTheApp() ? "passed" : "FAILED")")
// endregion: migration-test
