/// The objects of a to-many relationship: in order (meaningful for ordered relationships) with a set for fast
/// membership tests.
struct RelatedObjects {
    private(set) var objects: [ManagedObject] = []
    private var members: Set<ObjectIdentifier> = []

    init() {}

    init(_ objects: [ManagedObject]) {
        for object in objects { append(object) }
    }

    var count: Int { objects.count }

    func contains(_ object: ManagedObject) -> Bool { members.contains(ObjectIdentifier(object)) }

    /// Adds `object` at the end (or at `index`) unless it is already there.
    @discardableResult
    mutating func append(_ object: ManagedObject, at index: Int? = nil) -> Bool {
        guard members.insert(ObjectIdentifier(object)).inserted else { return false }
        if let index { objects.insert(object, at: min(index, objects.count)) } else { objects.append(object) }
        return true
    }

    @discardableResult
    mutating func remove(_ object: ManagedObject) -> Bool {
        guard members.remove(ObjectIdentifier(object)) != nil else { return false }
        objects.removeAll { $0 === object }
        return true
    }

    /// `true` when both hold the same objects (in the same order when `ordered`).
    func sameObjects(as other: RelatedObjects, ordered: Bool) -> Bool {
        ordered ? objects.elementsEqual(other.objects, by: ===) : members == other.members
    }
}
