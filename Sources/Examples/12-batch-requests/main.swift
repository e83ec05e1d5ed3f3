import Foundation
import KataSupport
// Persistence-only: BatchUpdateExpression, where Core Data takes an NSExpression.
@_spi(BatchUpdateExpression) import Persistence

// Lesson 12's runnable example: a bird survey's log, kept in step with the national survey database by batch
// requests. A batch correction leaves the view context stale until its IDs are merged; a merge policy lets an upload
// worker save over it; a batch delete's IDs take a closed site and its sightings out of the view context; a batch
// insert keyed by checklist and species reconciles the log with the database's export; and deleting a thousand
// sites three ways. `swift run lessons run 12`.

func makeContainer() throws -> PersistentContainer {
    let container = PersistentContainer(name: BirdLogModel.name, managedObjectModel: try BirdLogModel.make())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// Two sites: Marsh hide (checklist S-7: teal 240, lapwing 36, grey heron 2 confirmed) and Reed bed (checklist S-8:
/// teal 18, reed warbler 12). Returns the sites by name.
@discardableResult
func saveLog(in context: ManagedObjectContext) throws -> [String: SurveySite] {
    var sites: [String: SurveySite] = [:]
    for (name, checklist, counts) in [("Marsh hide", "S-7", [("teal", 240, "pending"), ("lapwing", 36, "pending"),
                                                              ("grey heron", 2, "confirmed")]),
                                      ("Reed bed", "S-8", [("teal", 18, "pending"), ("reed warbler", 12, "pending")])] {
        let site = SurveySite(context: context)
        site.name = name
        for (species, count, status) in counts {
            let sighting = Observation(context: context)
            sighting.checklist = checklist
            sighting.species = species
            sighting.count = count
            sighting.status = status
            sighting.site = site
        }
        sites[name] = site
    }
    try context.save()
    return sites
}

/// A site's sightings as the context holds them: "species count", by species.
func counts(_ site: SurveySite) -> String {
    site.sightings.sorted { $0.species < $1.species }.map { "\($0.species) \($0.count)" }.joined(separator: " · ")
}

// region: correction
/// The observer of checklist S-7 counted every bird twice: its pending counts are halved in SQL and marked
/// corrected (confirmed ones were checked by hand). Returns the IDs of the sightings it changed.
@discardableResult
func halveDoubleCounts(in container: PersistentContainer) throws -> [ManagedObjectID] {
    let corrector = container.newBackgroundContext()
    return try corrector.performAndWait {
        let request = BatchUpdateRequest(entity: Observation.entity())
        request.predicate = FetchPredicate(format: "checklist == %@ AND status == %@", "S-7", "pending")
        // A value computed from each row, and a constant, in one request.
        request.propertiesToUpdate = ["count": BatchUpdateExpression.key("count") / 2, "status": "corrected"]
        request.resultType = .updatedObjectIDsResultType
        // execute(_:) returns the base class, as Core Data's: cast it, then cast its result.
        let result = (try corrector.execute(request) as? BatchUpdateResult)?.result
        return result as? [ManagedObjectID] ?? []
    }
}
// endregion: correction

print("1. A batch update writes the store and tells no context")
do {
    let container = try makeContainer()
    let context = container.viewContext
    let marsh = try saveLog(in: context)["Marsh hide"]!
    print("   view context before:  Marsh hide: \(counts(marsh))")
    let counter = SaveCounter()
    // region: stale
    let corrected = try halveDoubleCounts(in: container)
    print("   \(corrected.count) sightings halved in SQL; did-save notifications: \(counter.count)")
    print("   view context after:   Marsh hide: \(counts(marsh))")
    // endregion: stale
    let reader = container.newBackgroundContext()
    let marshID = marsh.objectID
    let stored = try reader.performAndWait { counts(try reader.existingObject(with: marshID) as! SurveySite) }
    print("   the store holds:      Marsh hide: \(stored)")

    print("")
    print("2. Merging the IDs the request returned")
    // region: merge
    // Shaped like a did-save notification's user info: what the request did, as the key; the IDs, as the value.
    let changes: [AnyHashable: Any] = [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: corrected]
    ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [context])
    print("   view context after mergeChanges(fromRemoteContextSave:into:): Marsh hide: \(counts(marsh))")
    // endregion: merge
}

print("")
print("3. A worker saves a sighting whose row a batch update changed")
for policy in [MergePolicy.error, .mergeByPropertyObjectTrump] {
    let container = try makeContainer()
    try saveLog(in: container.viewContext)
    // region: worker-conflict
    let worker = container.newBackgroundContext()       // the upload worker's context, which no batch job merges into
    worker.mergePolicy = policy
    let teal = try worker.performAndWait {
        let request: FetchRequest<Observation> = Observation.fetchRequest()
        request.predicate = FetchPredicate(format: "checklist == %@ AND species == %@", "S-7", "teal")
        let teal = try worker.fetch(request)[0]
        teal.uploaded = true                                  // the upload went through…
        return teal
    }
    try halveDoubleCounts(in: container)                     // …meanwhile the correction ran
    worker.performAndWait {
        print("   \(policy): before saving, the worker's teal reads \(teal.count);", terminator: " ")
        do {
            try worker.save()
            print("saved: uploaded \(teal.uploaded), count \(teal.count)")
        } catch {
            print("the save failed: error \((error as NSError).code), \(error.localizedDescription)")
        }
    }
    // endregion: worker-conflict
}
do {
    let container = try makeContainer()
    try saveLog(in: container.viewContext)
    // region: policy-not-merge
    let worker = container.newBackgroundContext()
    worker.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
    let lapwing = try worker.performAndWait {
        let request: FetchRequest<Observation> = Observation.fetchRequest()
        request.predicate = FetchPredicate(format: "checklist == %@ AND species == %@", "S-7", "lapwing")
        let lapwing = try worker.fetch(request)[0]
        print("   the worker holds lapwing \(lapwing.count) and changes nothing;", terminator: " ")
        return lapwing
    }
    try halveDoubleCounts(in: container)
    try worker.performAndWait {
        try worker.save()                                     // nothing to save, so nothing to merge
        print("after the correction it saves: still \(lapwing.count)", terminator: "")
    }
    // endregion: policy-not-merge
    let reader = container.newBackgroundContext()
    let lapwingID = worker.performAndWait { lapwing.objectID }
    let stored = try reader.performAndWait { (try reader.existingObject(with: lapwingID) as! Observation).count }
    print(" (the store has \(stored))")
}

print("")
print("4. A batch delete, and merging the deleted IDs")
do {
    let container = try makeContainer()
    let context = container.viewContext
    let reedBed = try saveLog(in: context)["Reed bed"]!
    let warbler = reedBed.sightings.first { $0.species == "reed warbler" }!
    // region: delete
    // The site closes. This time the rows to delete are named by their IDs (one entity), not matched by a fetch
    // request; the cascade takes its sightings.
    let siteID = reedBed.objectID                                          // read on the view context's queue
    let cleaner = container.newBackgroundContext()
    let result = try cleaner.performAndWait {
        let request = BatchDeleteRequest(objectIDs: [siteID])
        request.resultType = .resultTypeObjectIDs
        return try cleaner.execute(request) as? BatchDeleteResult
    }
    let deleted = result?.result as? [ManagedObjectID] ?? []               // the site's ID, and its sightings'
    print("   \(deleted.count) objects deleted in SQL: \(deleted.compactMap(\.entity.name).joined(separator: ", "))")
    print("   before merging: the view context still holds \(reedBed.name) and \(warbler.species) (\(warbler.count))")
    ManagedObjectContext.mergeChanges(
        fromRemoteContextSave: [ManagedObjectContext.NotificationKey.deletedObjects.rawValue: deleted],
        into: [context])
    let left = deleted.filter { context.registeredObject(for: $0) != nil }
    print("   after merging:  objects of theirs the view context still holds: \(left.count)")
    // endregion: delete
}

print("")
print("5. A batch insert with a uniqueness constraint is an upsert")
do {
    let container = try makeContainer()
    let context = container.viewContext
    let reedBed = try saveLog(in: context)["Reed bed"]!
    let teal = reedBed.sightings.first { $0.species == "teal" }!
    // region: upsert
    // The national database's export of checklist S-8 after its review: two sightings the log has (one recounted),
    // and a bittern the observer added online.
    let export = [("S-8", "teal", 20), ("S-8", "reed warbler", 12), ("S-8", "bittern", 1)]
    for run in 1...2 {
        let before = try context.count(for: Observation.fetchRequest())
        let importer = container.newBackgroundContext()
        importer.mergePolicy = MergePolicy.mergeByPropertyObjectTrump   // what an upsert needs on Apple's platforms
        let written = try importer.performAndWait {
            var rows = export.makeIterator()
            // The rows come one at a time: the handler fills the dictionary it is given, and says when it is done.
            let request = BatchInsertRequest(entityName: "Observation", dictionaryHandler: { row in
                guard let (checklist, species, count) = rows.next() else { return true }
                row["checklist"] = checklist
                row["species"] = species
                row["count"] = count
                return false
            })
            request.resultType = .objectIDs
            return try (importer.execute(request) as? BatchInsertResult)?.result as? [ManagedObjectID] ?? []
        }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: written],
            into: [context])
        let after = try context.count(for: Observation.fetchRequest())
        print("   import \(run): \(written.count) rows written, \(after - before) of them new; the log has \(after) sightings; S-8 teal reads \(teal.count), at \(teal.site?.name ?? "no site")")
    }
    // endregion: upsert
    // The same export on a background context left with the default merge policy (.error).
    let plain = container.newBackgroundContext()
    do {
        try plain.performAndWait {
            _ = try plain.execute(BatchInsertRequest(entityName: "Observation", objects: export.map {
                ["checklist": $0.0, "species": $0.1, "count": $0.2]
            }))
        }
        print("   under the default merge policy: imported")
    } catch {
        let sightings = try context.count(for: Observation.fetchRequest())
        print("   under the default merge policy (.error): refused with \((error as NSError).code); the log still has \(sightings) sightings")
    }
}
