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
        let firstRelease = PersistentContainer(name: BirdLogVersion1.name,
                                               managedObjectModel: try BirdLogVersion1.model())
        firstRelease.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        nonisolated(unsafe) var loadError: (any Error)?
        firstRelease.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = firstRelease.viewContext
        for old in sightings {
            // Version 1 has no class: its objects are set by key, as version 1 named them.
            let sighting = EntityDescription.insertNewObject(forEntityName: "Sighting", into: context)
            sighting.setValue(old.species, forKey: "species")
            sighting.setValue(old.count, forKey: "count")
            sighting.setValue(old.notes, forKey: "notes")
            sighting.setValue(old.seenAt, forKey: "seenAt")
        }
        try context.save()
        let coordinator = firstRelease.persistentStoreCoordinator
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }
}
