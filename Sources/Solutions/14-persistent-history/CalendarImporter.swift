import Foundation
import KataSupport
import Persistence

/// Brings the calendar's reminders in as to-do items, in SQL. It tells no context: the history records the
/// import under its own author, and the app's ``HistoryReader`` merges it into the view context.
public final class CalendarImporter {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    /// Inserts one to-do item per reminder, not done, with one batch insert on a background context whose
    /// transactions are signed ``TodoAuthor/calendarImport``. Returns how many items it inserted.
    public func importReminders(_ reminders: [ReminderEntry]) throws -> Int {
        let background = container.newBackgroundContext()
        background.name = "calendar import"
        background.transactionAuthor = TodoAuthor.calendarImport
        return try background.performAndWait {
            let rows: [[String: Any]] = reminders.map { ["title": $0.title, "done": false] }
            let request = BatchInsertRequest(entityName: "TodoItem", objects: rows)
            // A count is all the caller needs: the history has the rows, and the reader brings them to the screen.
            request.resultType = .count
            let result = try background.execute(request) as? BatchInsertResult
            return result?.result as? Int ?? 0
        }
    }
}
