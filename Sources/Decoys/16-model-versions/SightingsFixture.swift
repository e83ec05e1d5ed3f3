import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public enum SightingsFixture {
    /// Only the "fixture-keeps-store-open" decoy fills it.
    nonisolated(unsafe) private static var openFixtures: [PersistentContainer] = []

    public static func writeVersion1Store(at url: URL, sightings: [OldSighting]) throws {
        // The current version instead of the first release's: the "old" store needs no migration at all.
        let current = Decoy.isActive("fixture-writes-current-version")
        // "The old version" read as the one before the current: version 2, which no first-release device has.
        let previous = Decoy.isActive("fixture-writes-previous-version")
        let model = current ? try BirdLogVersions.version3()
            : previous ? try BirdLogVersions.version2() : try BirdLogVersion1.model()
        let firstRelease = PersistentContainer(name: BirdLogVersion1.name, managedObjectModel: model)
        firstRelease.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        nonisolated(unsafe) var loadError: (any Error)?
        firstRelease.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = firstRelease.viewContext
        for old in sightings {
            let sighting = EntityDescription.insertNewObject(forEntityName: "Sighting", into: context)
            sighting.setValue(old.species, forKey: "species")
            sighting.setValue(old.count, forKey: "count")
            sighting.setValue(old.notes, forKey: current || previous ? "remarks" : "notes")
            if previous { sighting.setValue(Sighting.unrecordedPlace, forKey: "place") }
            sighting.setValue(old.seenAt, forKey: "seenAt")
            if current {
                sighting.setValue(Sighting.unrecordedPlace, forKey: "place")
                sighting.setValue(Sighting.speciesKey(for: old.species), forKey: "speciesKey")
            }
        }
        if !Decoy.isActive("fixture-never-saves") { try context.save() }
        if Decoy.isActive("fixture-keeps-store-open") {
            // Saved and left open: the container lives on (as an autoreleased coordinator does on Apple's
            // platforms until its pool drains), and the migration then opens a file another coordinator holds.
            openFixtures.append(firstRelease)
            return
        }
        let coordinator = firstRelease.persistentStoreCoordinator
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }
}
