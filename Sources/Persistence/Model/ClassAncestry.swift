/// Which classes derive from which: the model checks an entity's class against its parent's, and a typed fetch its
/// objects' classes against the result type.
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
