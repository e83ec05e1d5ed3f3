import Foundation
import KataSupport
import Persistence

/// The to-do app's stack. The app, its widget and its calendar import all write to one store file, so the store
/// keeps a persistent history of every transaction and tells the app when the file changes.
public enum TodoStack {
    /// A loaded container on the store at `storeURL` (`/dev/null` for a private in-memory store), recording
    /// persistent history from its first open and posting remote-change notifications; the view context signs
    /// its saves as ``TodoAuthor/app``. On Apple's platforms the stack also sets the view context's
    /// `stalenessInterval` to 0, so that a merge of another writer's changes is never filled from cached row data
    /// (lesson 11); Persistence keeps no row cache and has no such property, so there is nothing to set here.
    public static func makeContainer(storeURL: URL) throws -> PersistentContainer {
        throw KataNotDone(lesson: 14)
    }
}
