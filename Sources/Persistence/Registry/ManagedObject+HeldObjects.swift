extension ManagedObject {
    /// Calls `body` with each object this one holds through a relationship it has read or set, and through the
    /// values a rollback would restore. A packed row holds its to-one relationships as keys, so holds no object.
    func forEachHeldObject(_ body: (ManagedObject) -> Void) {
        func visit(_ slots: [PropertySlot]) {
            for slot in slots {
                switch slot {
                case .toOne(let object?): body(object)
                case .toMany(let list?): for object in list.objects { body(object) }
                default: continue
                }
            }
        }
        if case .slots(let slots) = values { visit(slots) }
        if let committed = extras?.committedSlots { visit(committed) }
    }
}
