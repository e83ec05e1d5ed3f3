import Foundation
import KataSupport
import Persistence

/// Lesson 3's group helpers with known mistakes (see `Decoy`).
extension Group {
    @discardableResult
    public static func insert(named name: String, titles: [String], into context: ManagedObjectContext) throws -> Group {
        let group = Group(context: context)
        group.name = name
        // Mistake: createdAt is never set. The class declares it a non-optional Date, so the first read of it while
        // it is nil is reported to stop the app on a device — before any save could report the missing value.
        // Mistake (created-at-model-default): createdAt is left to a default value the model was given, a date fixed
        // when the model was made, so every group carries the moment the app started.
        if !Decoy.isActive("created-at-unset") && !Decoy.isActive("created-at-model-default") { group.createdAt = Date() }
        // Mistake: a title already on the list is skipped "to avoid duplicates" (as an ordered set of the titles
        // would do on Apple), so a shopping list with "Milk" twice loses one.
        var seen = Set<String>()
        let wanted = Decoy.isActive("duplicate-titles-dropped") ? titles.filter { seen.insert($0).inserted } : titles
        let items = wanted.map { title in
            let item = Item(context: context)
            item.title = title
            return item
        }
        // Mistake: the items are made but never put in the group.
        if !Decoy.isActive("unlinked-items") { group.items = NSOrderedSet(array: items) }
        // Mistake: the helper saves, so whatever else the caller had changed in the context is saved with the group.
        if Decoy.isActive("insert-saves") { try context.save() }
        return group
    }

    public func moveItem(at source: Int, to destination: Int) throws {
        let valid = 0..<items.count
        if Decoy.isActive("move-clamps-index") {
            // Mistake: an index outside the list is pulled back into it, "so the move never crashes": a move asked
            // with a stale index lands on another item, and the caller never hears of it.
            let clamp = { (index: Int) in min(max(index, 0), self.items.count - 1) }
            var reordered = items.array
            reordered.insert(reordered.remove(at: clamp(source)), at: clamp(destination))
            items = NSOrderedSet(array: reordered)
            return
        }
        // Mistake: an index outside the list makes the move quietly do nothing; the caller is never told.
        if Decoy.isActive("move-out-of-range-ignored"), !valid.contains(source) || !valid.contains(destination) {
            return
        }
        for index in [source, destination] where !valid.contains(index) {
            throw ItemIndexOutOfRange(index: index, count: items.count)
        }
        // Mistake: the list is rebuilt from the titles, in the new order, as new items; the old ones are deleted.
        // The titles read right, but every item a caller holds is gone, and with it each item's note.
        if Decoy.isActive("move-recreates-items"), let context = managedObjectContext {
            var titles = (items.array as! [Item]).map(\.title)
            titles.insert(titles.remove(at: source), at: destination)
            let old = items.array as! [Item]
            items = NSOrderedSet(array: titles.map { title in
                let item = Item(context: context)
                item.title = title
                return item
            })
            for item in old { context.delete(item) }
            return
        }
        var reordered = items.array
        if Decoy.isActive("move-swaps") {
            // Mistake: swapping two items is not moving one; everything between them stays out of place.
            reordered.swapAt(source, destination)
        } else if Decoy.isActive("move-forward-only") {
            // Mistake: the item is bubbled towards a later index, one neighbour at a time; a move towards the top of
            // the list does nothing.
            var index = source
            while index < destination {
                reordered.swapAt(index, index + 1)
                index += 1
            }
        } else {
            let item = reordered.remove(at: source)
            reordered.insert(item, at: destination)
        }
        items = NSOrderedSet(array: reordered)
        // Mistake: the move saves, and with it whatever else the caller had not saved yet.
        if Decoy.isActive("move-saves") { try managedObjectContext?.save() }
    }
}
