import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence
import XCTest

/// Folder (unique by name) ─notes→ Note (cascade), and Checklist, a subentity of Note, for the persistent history tests. A note's
/// `uuid` and `title` are kept in history when it is deleted; a checklist also keeps `done`.
///
/// `Entry` is the entity of the writer process (Sources/PersistenceCrashWriter), declared the same way so both
/// processes open one store.
enum HistoryModel {
    final class Folder: ManagedObject {
        @Managed var name: String
        @Managed var notes: Set<Note>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Folder> {
            FetchRequest<Folder>(entityName: "Folder")
        }
    }

    class Note: ManagedObject {
        @Managed var title: String
        @Managed var uuid: UUID?
        @Managed var score: Int
        @Managed var folder: Folder?

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Note> {
            FetchRequest<Note>(entityName: "Note")
        }
    }

    final class Checklist: Note {
        @Managed var done: Bool

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Checklist> {
            FetchRequest<Checklist>(entityName: "Checklist")
        }
    }

    final class Entry: ManagedObject {
        @Managed var batch: Int64
        @Managed var serial: Int64

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Entry> {
            FetchRequest<Entry>(entityName: "Entry")
        }
    }

    static func make() throws -> ManagedObjectModel {
        let note = EntityDescription(name: "Note", managedObjectClass: Note.self, properties: [
            .attribute("title", .string, optional: false, preservesValueInHistoryOnDeletion: true),
            .attribute("uuid", .uuid, preservesValueInHistoryOnDeletion: true),
            .attribute("score", .integer32, defaultValue: 0),
            .toOne("folder", "Folder", inverse: "notes"),
        ])
        let checklist = EntityDescription(name: "Checklist", managedObjectClass: Checklist.self, parent: note, properties: [
            .attribute("done", .boolean, optional: false, defaultValue: .bool(false), preservesValueInHistoryOnDeletion: true),
        ])
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Folder", managedObjectClass: Folder.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("notes", "Note", inverse: "folder", deleteRule: .cascade),
            ], uniquenessConstraints: [["name"]]),
            note, checklist,
        ])
    }

    /// The writer process's model (see Sources/PersistenceCrashWriter/main.swift).
    static func makeWriterModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", managedObjectClass: Entry.self, properties: [
                .attribute("batch", .integer64, optional: false),
                .attribute("serial", .integer64, optional: false),
            ]),
        ])
    }

    /// A description of the store at `url` with history tracking (and remote-change notifications) set as asked.
    static func description(_ url: URL = URL(fileURLWithPath: "/dev/null"), tracking: Bool? = true,
                            remoteChanges: Bool = false) -> PersistentStoreDescription {
        let description = PersistentStoreDescription(url: url)
        if let tracking { description.setOption(tracking as NSNumber, forKey: NSPersistentHistoryTrackingKey) }
        if remoteChanges { description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey) }
        return description
    }

    /// A loaded container on `description`'s store.
    static func container(_ description: PersistentStoreDescription, model: ManagedObjectModel? = nil) throws -> PersistentContainer {
        let container = PersistentContainer(name: "History", managedObjectModel: try model ?? make())
        container.persistentStoreDescriptions = [description]
        let failure = LoadError()
        container.loadPersistentStores { _, error in failure.error = error }
        if let error = failure.error { throw error }
        return container
    }
}

extension ManagedObjectContext {
    /// The store's history after `token` (all of it for nil), with changes.
    func history(after token: PersistentHistoryToken? = nil) throws -> [PersistentHistoryTransaction] {
        try performAndWait {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
            let result = try execute(request) as? PersistentHistoryResult
            return result?.result as? [PersistentHistoryTransaction] ?? []
        }
    }
}
