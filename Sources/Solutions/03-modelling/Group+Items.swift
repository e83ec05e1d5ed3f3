import Foundation
import KataSupport
import Persistence

extension Group {
    // region: insert
    /// Inserts a group with one item per title, in order. Does not save: the caller decides when.
    @discardableResult
    public static func insert(named name: String, titles: [String], into context: ManagedObjectContext) throws -> Group {
        let group = Group(context: context)
        group.name = name
        group.createdAt = Date()
        group.items = NSOrderedSet(array: titles.map { title in
            let item = Item(context: context)
            item.title = title
            return item
        })
        return group
    }
    // endregion: insert

    // region: move
    /// Moves one item to a new position. The ordered set is the order: take its objects, change their order, and
    /// give them back as a new ordered set. An index outside the list is the caller's mistake, reported before
    /// anything changes.
    public func moveItem(at source: Int, to destination: Int) throws {
        for index in [source, destination] where !(0..<items.count).contains(index) {
            throw ItemIndexOutOfRange(index: index, count: items.count)
        }
        var reordered = items.array
        let item = reordered.remove(at: source)
        reordered.insert(item, at: destination)
        items = NSOrderedSet(array: reordered)
    }
    // endregion: move
}
