import KataSupport
import Persistence

/// An edit screen's session: one plant, edited in a child context of the context it came from.
///
/// Lesson 8, katas 1–6. Check with `swift run lessons check 8`.
public final class PlantEditSession {
    /// The context the edit is committed to: the one the plant came from.
    public let parent: ManagedObjectContext
    /// The session's child context, on the main queue like the screen that uses it.
    public let context: ManagedObjectContext
    /// The session's copy of the plant, in ``context``.
    public let plant: Plant
    /// Whether a commit can still save the edit: `false` once the parent's save has failed (see ``commit()``).
    public private(set) var isOpen = true

    /// Makes the session's child context of `parent` and looks up the session's own copy of `plant` — an object of
    /// `parent`, saved or not — there. Throws when the plant exists neither in `parent` nor in the store (deleted
    /// meanwhile, say): a session on it could neither read nor save it. The session can commit more than once, also
    /// for a plant the parent had not saved when it opened.
    public init(editing plant: Plant, in parent: ManagedObjectContext) throws {
        throw KataNotDone(lesson: 8)
    }

    /// Makes the session's child context of `parent` and a new plant in it, for the user to fill in.
    public init(newPlantIn parent: ManagedObjectContext) throws {
        throw KataNotDone(lesson: 8)
    }

    /// Changes the name, in the child only.
    public func rename(to name: String) {
        plant.name = name
    }

    /// Saves the edit all the way to the store, and returns `true`; returns `false`, and saves nothing, when there is
    /// nothing to save. A new plant has its permanent ID afterwards.
    ///
    /// When the edit itself cannot be saved, the error is thrown and the edit stays in the session, to be fixed; the
    /// session stays open. When the parent cannot save, the parent is clean again before the error is thrown, and
    /// the session is closed: its edit is gone, so a later commit throws rather than return `false`.
    @discardableResult
    public func commit() throws -> Bool {
        throw KataNotDone(lesson: 8)
    }

    /// Throws the edit away — everything done in the child, not only the plant's name. The parent, and any unsaved
    /// work in it, is not touched; the session's plant stays usable, with its values as they were before the edit.
    public func discard() throws {
        throw KataNotDone(lesson: 8)
    }
}
