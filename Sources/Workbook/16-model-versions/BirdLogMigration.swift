import Foundation
import KataSupport
import Persistence

/// How a store of any earlier version reaches the current one: the stages of a staged migration (Core Data's
/// `NSStagedMigrationManager`, iOS 17), in order.
///
/// Lesson 16, kata 3. Check with `swift run lessons check 16`.
public enum BirdLogMigration {
    /// Kata 3: from version 1 to 2, then from 2 to 3, so that a store of either version reaches version 3. The step
    /// to version 3 fills every sighting's `speciesKey` from its `species` (``Sighting/speciesKey(for:)``), which
    /// no inferred mapping can compute.
    public static func stages() throws -> [MigrationStage] {
        throw KataNotDone(lesson: 16)
    }
}
