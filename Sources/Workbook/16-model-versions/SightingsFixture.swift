import Foundation
import KataSupport
import Persistence

/// What a migration test starts from: a store file exactly as the app's first release left it on a user's device.
///
/// Lesson 16, kata 5. Check with `swift run lessons check 16`.
public enum SightingsFixture {
    /// Kata 5: writes a store at `url` with version 1 of the model (``BirdLogVersion1``) holding `sightings`, and
    /// closes it, so that a test can open it with the current version.
    public static func writeVersion1Store(at url: URL, sightings: [OldSighting]) throws {
        throw KataNotDone(lesson: 16)
    }
}
