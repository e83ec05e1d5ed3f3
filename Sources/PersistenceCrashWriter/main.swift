import Foundation
import Persistence

// Saves batches of objects into a store, one transaction per batch, until it is killed. The crash-consistency test
// kills it at random moments and checks that the store always holds whole batches.
//
//   PersistenceCrashWriter STORE-PATH BATCH-SIZE
//   PersistenceCrashWriter migrate MODEL.xcdatamodeld STORE-PATH STARTED-MARKER   (see below)

let arguments = CommandLine.arguments

// Migrates a store to the current version of a model read from a .xcdatamodeld, once; the crash-consistency test
// kills it mid-migration and checks that the store is either the old one, whole, or the migrated one.
//
//   PersistenceCrashWriter migrate MODEL.xcdatamodeld STORE-PATH STARTED-MARKER
if arguments.count == 5, arguments[1] == "migrate" {
    do {
        let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[2]), managedObjectClasses: [])
        let container = PersistentContainer(name: "CrashMigrator", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: arguments[3]))]
        _ = FileManager.default.createFile(atPath: arguments[4], contents: Data())
        let started = Date()
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        FileHandle.standardOutput.write(Data("migrated in \(Date().timeIntervalSince(started)) s\n".utf8))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("PersistenceCrashWriter: \(error)\n".utf8))
        exit(1)
    }
}

guard arguments.count == 3, let batchSize = Int(arguments[2]), batchSize > 0 else {
    FileHandle.standardError.write(Data("usage: PersistenceCrashWriter STORE-PATH BATCH-SIZE\n".utf8))
    exit(2)
}

final class Entry: ManagedObject {
    @Managed var batch: Int64
    @Managed var serial: Int64
}

do {
    let model = try ManagedObjectModel(entities: [
        EntityDescription(name: "Entry", managedObjectClass: Entry.self, properties: [
            .attribute("batch", .integer64, optional: false),
            .attribute("serial", .integer64, optional: false),
        ]),
    ])
    let container = PersistentContainer(name: "CrashWriter", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: arguments[1]))]
    nonisolated(unsafe) var loadError: (any Error)?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }

    let context = container.newBackgroundContext()
    try context.performAndWait {
        let newest = FetchRequest<Entry>(entityName: "Entry")
        newest.sortDescriptors = [FetchSortDescriptor(key: "batch", ascending: false)]
        newest.fetchLimit = 1
        var batch = (try context.fetch(newest).first?.batch ?? 0) + 1
        while true {
            for serial in 0..<batchSize {
                let entry = Entry(context: context)
                entry.batch = batch
                entry.serial = Int64(serial)
            }
            try context.save()
            context.reset()
            FileHandle.standardOutput.write(Data("saved batch \(batch)\n".utf8))
            batch += 1
        }
    }
} catch {
    FileHandle.standardError.write(Data("PersistenceCrashWriter: \(error)\n".utf8))
    exit(1)
}
