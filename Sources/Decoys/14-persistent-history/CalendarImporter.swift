import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class CalendarImporter {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    public func importReminders(_ reminders: [ReminderEntry]) throws -> Int {
        if Decoy.isActive("import-borrows-view-context") {
            // The view context borrowed for the import, its author switched and then restored: the main queue runs
            // the insert, and an app save meanwhile would be signed as the import.
            let view = container.viewContext
            return try view.performAndWait {
                let was = view.transactionAuthor
                view.transactionAuthor = TodoAuthor.calendarImport
                defer { view.transactionAuthor = was }
                let rows: [[String: Any]] = reminders.map { ["title": $0.title, "done": false] }
                let request = BatchInsertRequest(entityName: "TodoItem", objects: rows)
                request.resultType = .count
                return (try view.execute(request) as? BatchInsertResult)?.result as? Int ?? 0
            }
        }
        let background = container.newBackgroundContext()
        background.name = "calendar import"
        if Decoy.isActive("import-as-app") {
            // One author for everything: the app's reader takes the import for its own work and skips it.
            background.transactionAuthor = TodoAuthor.app
        } else if !Decoy.isActive("import-without-author") {
            background.transactionAuthor = TodoAuthor.calendarImport
        }
        if Decoy.isActive("reminders-by-saving") {
            // Objects made and saved one by one: recorded in the history too, but no batch.
            return try background.performAndWait {
                for reminder in reminders {
                    let item = TodoItem(context: background)
                    item.title = reminder.title
                    item.done = false
                }
                try background.save()
                return reminders.count
            }
        }
        let inserted = try background.performAndWait {
            let rows: [[String: Any]] = reminders.map { ["title": $0.title, "done": false] }
            let request = BatchInsertRequest(entityName: "TodoItem", objects: rows)
            request.resultType = .objectIDs
            let result = try background.execute(request) as? BatchInsertResult
            return result?.result as? [ManagedObjectID] ?? []
        }
        if Decoy.isActive("import-merges-by-hand") {
            // Lesson 12's hand-made notification: right on screen, but the history brings the same rows again.
            ManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [ManagedObjectContext.NotificationKey.insertedObjects.rawValue: inserted],
                into: [container.viewContext])
        }
        return inserted.count
    }
}
