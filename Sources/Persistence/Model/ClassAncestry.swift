/// Which classes derive from which: a typed fetch checks its entities' classes against the result type, and the model
/// a typed relationship's class against the classes of the objects it may hold.
enum ClassAncestry {
    /// `true` when `type` is `ancestor` or inherits from it.
    static func isClass(_ type: AnyClass, subclassOf ancestor: AnyClass) -> Bool {
        var current: AnyClass? = type
        while let candidate = current {
            if candidate == ancestor { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }
}
