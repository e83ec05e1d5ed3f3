/// An object's state as its parent context holds it.
struct ParentObjectState: Sendable {
    let slots: [SlotSnapshot]
    let version: Int64
    let isDeleted: Bool
}
