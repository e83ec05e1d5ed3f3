/// Thrown by lesson 3's `Group.moveItem(at:to:)` when an index is outside the group's items: the first such index,
/// and how many items there are.
///
/// A move asked with a stale index (a screen that has not caught up with a delete) or an off-by-one destination is
/// a mistake the caller can recover from, so it is an error rather than a trap.
public struct ItemIndexOutOfRange: Error, Equatable, CustomStringConvertible {
    /// The index that is outside `0..<count`.
    public let index: Int
    /// How many items the group has.
    public let count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public var description: String { "ItemIndexOutOfRange(index: \(index), count: \(count))" }
}
