import Foundation

/// Who writes the store transaction under way: the author and name of the context that saves or runs a batch
/// request, recorded in the transaction's history (``PersistentHistoryTransaction/author``,
/// ``PersistentHistoryTransaction/contextName``).
///
/// A context sets it around the store calls of one save or request, on the calling thread (a task-local value:
/// several contexts write through one coordinator, each from its own queue); the store reads it when it begins
/// the transaction. Outside of that, it is empty.
struct HistoryTransactionOrigin: Sendable {
    var author: String?
    var contextName: String?

    @TaskLocal static var current = HistoryTransactionOrigin()

    /// The bundle recorded with each transaction: the main bundle's identifier, or, where a program has none (a
    /// command-line tool, most Linux programs), its process name. What Core Data records then is undocumented.
    static let bundleID = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    /// The process recorded with each transaction: its process identifier, as text (Core Data's `processID` is a
    /// `String`).
    static let processID = String(ProcessInfo.processInfo.processIdentifier)
}
