import Foundation
import KataSupport
import Persistence

/// Lesson 4's ``PlantStorage`` with known mistakes (see `Decoy`).
public final class PlantStorage {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    public var viewContext: ManagedObjectContext { container.viewContext }

    @discardableResult
    public func addPlant(named name: String) throws -> Plant {
        // Mistake: a fresh context for the job. The plant is saved, but it belongs to a context the caller never
        // sees, and that context is gone as soon as this method returns.
        if Decoy.isActive("add-in-new-context") {
            let scratch = container.newBackgroundContext()
            return try scratch.performAndWait {
                let plant = Plant(context: scratch)
                plant.name = name
                try scratch.save()
                return plant
            }
        }
        // Mistake: find-or-create — a plant of that name already there is returned instead of adding another.
        if Decoy.isActive("add-finds-existing") {
            let request: FetchRequest<Plant> = Plant.fetchRequest()
            request.predicate = FetchPredicate(format: "name == %@", name)
            request.fetchLimit = 1
            if let existing = try viewContext.fetch(request).first { return existing }
        }
        let plant = Plant(context: viewContext)
        plant.name = name
        // Mistake: the plant is only in the context; the store never hears of it.
        if Decoy.isActive("add-without-save") { return plant }
        // Mistake: `try?` keeps a failed save from the caller, who shows the plant as added when it is not.
        if Decoy.isActive("add-ignores-save-error") {
            try? viewContext.save()
            return plant
        }
        // Mistake: a failed save is undone with rollback() before it is reported. The error reaches the caller, but
        // rollback() undoes every unsaved change of the view context, not only this plant: whatever another screen
        // had begun there is gone too.
        if Decoy.isActive("add-rolls-back-on-failure") {
            do { try viewContext.save() } catch { viewContext.rollback(); throw error }
            return plant
        }
        try viewContext.save()
        return plant
    }

    public func allPlants() throws -> [Plant] {
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        // Mistake: the context is reset first, to read the store afresh. The plants come back right, but reset()
        // drops the view context's unsaved changes and leaves every plant a screen holds unusable.
        if Decoy.isActive("all-resets-first") { viewContext.reset() }
        // Mistake: fetched in a context made for the call: the plants' context is gone once it returns.
        if Decoy.isActive("all-from-throwaway-context") {
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
            let scratch = container.newBackgroundContext()
            return try scratch.performAndWait { try scratch.fetch(request) }
        }
        // Mistake: the fetch has no order, and Swift sorts the plants afterwards, reading every one.
        if Decoy.isActive("all-sorted-in-swift") {
            return try viewContext.fetch(request).sorted { $0.name < $1.name }
        }
        // Mistake: the same Swift sort, with the plants fetched filled so that sorting fires no fault: the objects
        // look as a fetch returns them, and the store still did not order them.
        if Decoy.isActive("all-filled-sorted-in-swift") {
            request.returnsObjectsAsFaults = false
            return try viewContext.fetch(request).sorted { $0.name < $1.name }
        }
        // Mistake: no sort descriptor, so the plants come back in whatever order the store keeps them.
        if !Decoy.isActive("all-unsorted") {
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        }
        // Mistake: the request is told to skip the context's unsaved changes, "to read only what is saved": a plant
        // added on this screen and not saved is missing, and one deleted and not saved is still listed.
        if Decoy.isActive("all-skips-pending-changes") { request.includesPendingChanges = false }
        // Mistake: the fetch runs in a background context, "to keep the main queue free", and its objects are
        // mapped back into the view context by ID: sorted by the store, the view context's objects — and read
        // from the store alone, without the view context's unsaved inserts and deletes.
        if Decoy.isActive("all-fetched-elsewhere-mapped-back") { return try fetchedElsewhere(request) }
        return try viewContext.fetch(request)
    }

    /// `request` run in a new background context, its objects handed back as the view context's by ID.
    private func fetchedElsewhere(_ request: FetchRequest<Plant>) throws -> [Plant] {
        let reader = container.newBackgroundContext()
        let ids = try reader.performAndWait { try reader.fetch(request).map(\.objectID) }
        return ids.compactMap { viewContext.object(with: $0) as? Plant }
    }

    public func plants(notWateredSince date: Date) throws -> [Plant] {
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        // Mistake: as all-resets-first — a fresh read bought with the caller's unsaved changes and objects.
        if Decoy.isActive("not-watered-resets-first") { viewContext.reset() }
        // Mistake: every plant is fetched, sorted by the store, and Swift picks the ones to return.
        if Decoy.isActive("not-watered-filtered-in-swift") {
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
            return try viewContext.fetch(request).filter { plant in
                guard let wateredOn = plant.wateredOn else { return true }
                return wateredOn < date
            }
        }
        // Mistake: every plant is fetched filled and sorted by the store, and Swift picks the thirsty ones — no
        // fault fires, but the store read every row.
        if Decoy.isActive("not-watered-filled-filtered-in-swift") {
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
            request.returnsObjectsAsFaults = false
            return try viewContext.fetch(request).filter { plant in
                guard let wateredOn = plant.wateredOn else { return true }
                return wateredOn < date
            }
        }
        // Mistake: a plant never watered has no date, and `wateredOn < date` alone leaves it out.
        var format = Decoy.isActive("never-watered-left-out")
            ? "wateredOn < %@" : "wateredOn == nil OR wateredOn < %@"
        // Mistake: "not watered since" written as the negation of "watered since". In Core Data's SQLite store a
        // comparison with NULL is neither true nor false, and its NOT is not true either: the plants never watered
        // are left out, on a device as here.
        if Decoy.isActive("not-watered-as-negation") { format = "NOT (wateredOn >= %@)" }
        // Mistake: off by one day — a plant watered exactly on the date counts as not watered since.
        if Decoy.isActive("watered-on-the-day-counts") { format = "wateredOn == nil OR wateredOn <= %@" }
        request.predicate = FetchPredicate(format: format, date)
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        // Mistake: as all-skips-pending-changes — the store's answer alone, without this screen's unsaved changes.
        if Decoy.isActive("not-watered-skips-pending-changes") { request.includesPendingChanges = false }
        // Mistake: as all-fetched-elsewhere-mapped-back — asked in another context, mapped back by ID.
        if Decoy.isActive("not-watered-fetched-elsewhere-mapped-back") { return try fetchedElsewhere(request) }
        // Mistake: the predicate is built, but the request that is fetched is another one, without it.
        if Decoy.isActive("predicate-ignored") {
            let all: FetchRequest<Plant> = Plant.fetchRequest()
            all.sortDescriptors = request.sortDescriptors
            return try viewContext.fetch(all)
        }
        return try viewContext.fetch(request)
    }

    public func water(_ plant: Plant, on date: Date) throws {
        // Mistake: the watering is written through a context of its own, looked up by ID: the store gets the date,
        // but the plant the caller holds — and shows — still has the old one.
        if Decoy.isActive("water-in-new-context") {
            let writer = container.newBackgroundContext()
            let id = plant.objectID
            try writer.performAndWait {
                (try writer.existingObject(with: id) as? Plant)?.wateredOn = date
                try writer.save()
            }
            return
        }
        plant.wateredOn = date
        // Mistake: the new date stays in memory; the store keeps the old one.
        if Decoy.isActive("water-without-save") { return }
        // Mistake: a context is saved, but not the one the plant belongs to.
        if Decoy.isActive("water-saves-another-context") {
            let other = container.newBackgroundContext()
            try other.performAndWait { try other.save() }
            return
        }
        // Mistake: `try?` — the caller hears nothing of a failed save and shows the new date, which the store never
        // got.
        if Decoy.isActive("water-ignores-save-error") {
            try? viewContext.save()
            return
        }
        // Mistake: a failed save is cleaned up with rollback(), which undoes every unsaved change of the view
        // context, including those that are not this method's.
        if Decoy.isActive("water-rolls-back-on-failure") {
            do { try viewContext.save() } catch { viewContext.rollback(); throw error }
            return
        }
        try viewContext.save()
    }

    public func delete(_ plant: Plant) throws {
        // Mistake: the plant is deleted by what it is called, as a SQL DELETE ... WHERE name = ? would: every other
        // plant of the same name goes with it.
        if Decoy.isActive("delete-by-name") {
            let sameName: FetchRequest<Plant> = Plant.fetchRequest()
            sameName.predicate = FetchPredicate(format: "name == %@", plant.name)
            for match in try viewContext.fetch(sameName) { viewContext.delete(match) }
            try viewContext.save()
            return
        }
        // Mistake: the delete goes through a context of its own, looked up by ID: the row leaves the store, but the
        // view context still holds the plant, alive, with its values — a screen keeps showing it.
        if Decoy.isActive("delete-in-new-context") {
            let writer = container.newBackgroundContext()
            let id = plant.objectID
            try writer.performAndWait {
                writer.delete(try writer.existingObject(with: id))
                try writer.save()
            }
            return
        }
        viewContext.delete(plant)
        // Mistake: processPendingChanges() taken for the step that writes: it runs the delete rules in memory, and
        // the store never hears of the delete.
        if Decoy.isActive("delete-processes-pending-changes") {
            viewContext.processPendingChanges()
            return
        }
        // Mistake: the plant is only marked deleted in the context; its row stays in the store.
        if Decoy.isActive("delete-without-save") { return }
        // Mistake: `try?` — the plant vanishes from the screen while its row stays in the store, and it is back at
        // the next launch.
        if Decoy.isActive("delete-ignores-save-error") {
            try? viewContext.save()
            return
        }
        // Mistake: a failed save is cleaned up with reset(), which forgets every change of the view context and
        // leaves every plant the caller holds unusable.
        if Decoy.isActive("delete-resets-on-failure") {
            do { try viewContext.save() } catch { viewContext.reset(); throw error }
            return
        }
        try viewContext.save()
    }
}
