import Foundation
import KataSupport
import Persistence

extension Group {
    /// Inserts a group called `name`, made now, into `context`, with one new item per title — in the order given.
    /// Does not save.
    ///
    /// Lesson 3, katas 3–4. Check with `swift run lessons check 3`.
    @discardableResult
    public static func insert(named name: String, titles: [String], into context: ManagedObjectContext) throws -> Group {
        throw KataNotDone(lesson: 3)
    }

    /// Moves the item at index `source` so that it ends up at index `destination`; the others keep their order.
    /// Does not save. `[A, B, C, D]`, moving 0 to 2, gives `[B, C, A, D]`.
    ///
    /// - Throws: ``ItemIndexOutOfRange`` when `source` or `destination` is outside `0..<items.count`, naming the
    ///   first of the two that is (`source` first), and changes nothing.
    ///
    /// Lesson 3, kata 5.
    public func moveItem(at source: Int, to destination: Int) throws {
        throw KataNotDone(lesson: 3)
    }
}
