import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) import Persistence

// Saves batches of objects into a store, one transaction per batch. The crash-consistency tests kill it at random
// moments and check that the store always holds whole batches (and, with history, each batch's history with it);
// the persistent history tests run it as a second process writing to a store another process watches.
//
//   PersistenceCrashWriter STORE-PATH BATCH-SIZE
//       prints "opened" once the store is loaded, then saves batches until it is killed, printing "saved batch N"
//       after each
//   PersistenceCrashWriter --history STORE-PATH BATCH-SIZE
//       the same with persistent history tracking on (author "crash-writer")
//   PersistenceCrashWriter --history-once STORE-PATH COUNT AUTHOR
//       saves one batch of COUNT objects with history on, as AUTHOR, prints "transaction N committed at T"
//       (T in seconds since 1970) and exits
//   PersistenceCrashWriter migrate MODEL.xcdatamodeld STORE-PATH STARTED-MARKER
//       migrates the store to the model's current version, once (see below)

let usage = """
    usage: PersistenceCrashWriter [--history] STORE-PATH BATCH-SIZE
           PersistenceCrashWriter --history-once STORE-PATH COUNT AUTHOR
           PersistenceCrashWriter migrate MODEL.xcdatamodeld STORE-PATH STARTED-MARKER

    """

// Migrates a store to the current version of a model read from a .xcdatamodeld, once; the crash-consistency test
// kills it mid-migration and checks that the store is either the old one, whole, or the migrated one.
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "migrate" {
    do {
        let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2]), managedObjectClasses: [])
        let container = PersistentContainer(name: "CrashMigrator", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: CommandLine.arguments[3]))]
        _ = FileManager.default.createFile(atPath: CommandLine.arguments[4], contents: Data())
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

enum Mode {
    case loop(history: Bool)
    case once(author: String)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let mode: Mode
switch arguments.first {
case "--history":
    arguments.removeFirst()
    mode = .loop(history: true)
case "--history-once":
    arguments.removeFirst()
    guard arguments.count == 3 else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
    mode = .once(author: arguments.removeLast())
default:
    mode = .loop(history: false)
}
guard arguments.count == 2, let batchSize = Int(arguments[1]), batchSize > 0 else {
    FileHandle.standardError.write(Data(usage.utf8))
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
    let description = PersistentStoreDescription(url: URL(fileURLWithPath: arguments[0]))
    switch mode {
    case .loop(history: false): break
    case .loop(history: true), .once:
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
    }
    container.persistentStoreDescriptions = [description]
    nonisolated(unsafe) var loadError: (any Error)?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }

    // The crash tests tell a kill while the store opens from one after it.
    if case .loop = mode { FileHandle.standardOutput.write(Data("opened\n".utf8)) }

    let context = container.newBackgroundContext()
    switch mode {
    case .loop(let history): context.transactionAuthor = history ? "crash-writer" : nil
    case .once(let author): context.transactionAuthor = author
    }
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
            let saved = Date()
            context.reset()
            if case .once = mode {
                // This process's newest transaction.
                let mine = PersistentHistoryTransaction.fetchRequest!
                mine.predicate = FetchPredicate(format: "processID == %@", String(ProcessInfo.processInfo.processIdentifier))
                mine.sortDescriptors = [FetchSortDescriptor(key: "transactionNumber", ascending: false)]
                mine.fetchLimit = 1
                let request = PersistentHistoryChangeRequest.fetchHistory(withFetch: mine)
                request.resultType = .transactionsOnly
                let result = try context.execute(request) as? PersistentHistoryResult
                let transactions = result?.result as? [PersistentHistoryTransaction] ?? []
                let number = transactions.first?.transactionNumber ?? 0
                // When the save committed, for the reader to measure how soon it heard of it.
                let committed = String(format: "%.6f", saved.timeIntervalSince1970)
                FileHandle.standardOutput.write(Data("transaction \(number) committed at \(committed)\n".utf8))
                return
            }
            FileHandle.standardOutput.write(Data("saved batch \(batch)\n".utf8))
            batch += 1
        }
    }
} catch {
    FileHandle.standardError.write(Data("PersistenceCrashWriter: \(error)\n".utf8))
    exit(1)
}
