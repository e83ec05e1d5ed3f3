/// The inserted, updated or deleted objects of a context, in the order they joined, with constant-time membership
/// and removal. An object (it belongs to one context) knows which lists it is in, and its position in the inserted
/// list, which every new object joins and a save reads keys by. The positions in the other two lists are looked up
/// in an index made on their first removal: objects are rarely taken out of them one by one, and every fetched
/// object would otherwise carry two more positions.
struct ObjectList {
    enum Kind {
        case inserted, updated, deleted
    }

    let kind: Kind
    private var slots: [ManagedObject?] = []
    /// Positions by object, for the updated and deleted lists once something was removed from them.
    private var index: [ObjectIdentifier: Int]?
    private(set) var count = 0
    /// Changes whenever positions are renumbered (compaction, removeAll), which invalidates older marks.
    private var generation = 0
    /// Where the last did-change notification left the list: the objects at positions below it were reported.
    /// Unlike a ``Mark`` it survives compaction, which renumbers it with the objects.
    private(set) var reportedEnd = 0

    /// A point in the list's history: what was appended after it is what changed since.
    struct Mark {
        fileprivate var generation = -1
        fileprivate var position = 0
    }

    /// The current end of the list.
    var mark: Mark { Mark(generation: generation, position: slots.count) }

    /// The objects appended since `mark` (all current objects when the list was renumbered since).
    func objects(since mark: Mark) -> [ManagedObject] {
        guard mark.generation == generation else { return objects }
        return slots[min(mark.position, slots.count)...].compactMap { $0 }
    }

    /// ``objects(since:)`` as a set, built without an intermediate array (a save of many objects makes one).
    func objectSet(since mark: Mark) -> Set<ManagedObject> {
        objectSet(from: mark.generation == generation ? min(mark.position, slots.count) : 0)
    }

    /// The objects that joined since the last did-change notification (see ``markReported()``).
    func unreportedObjects() -> Set<ManagedObject> {
        objectSet(from: min(reportedEnd, slots.count))
    }

    private func objectSet(from start: Int) -> Set<ManagedObject> {
        var set = Set<ManagedObject>(minimumCapacity: slots.count - start)
        for object in slots[start...] {
            if let object { set.insert(object) }
        }
        return set
    }

    /// Every object now in the list has been reported.
    mutating func markReported() {
        reportedEnd = slots.count
    }

    /// `true` when `object`, a member of the inserted list, joined before the last did-change notification (cheap:
    /// the object keeps its position in that list).
    @inline(__always)
    func reportedInsertion(of object: ManagedObject) -> Bool {
        Int(object.insertedPosition) < reportedEnd
    }

    init(_ kind: Kind) {
        self.kind = kind
    }

    var isEmpty: Bool { count == 0 }

    func contains(_ object: ManagedObject) -> Bool { object.isInList(kind) }

    /// Adds `object` at the end; `false` when it was in the list already (and stays where it was).
    @discardableResult
    mutating func append(_ object: ManagedObject) -> Bool {
        guard !object.isInList(kind) else { return false }
        object.setInList(kind, position: slots.count)
        index?[ObjectIdentifier(object)] = slots.count
        slots.append(object)
        count += 1
        return true
    }

    /// Takes `object` out of the list; returns `true` when it was in the list since before the last did-change
    /// notification (so observers were told of it).
    @discardableResult
    mutating func remove(_ object: ManagedObject) -> Bool {
        guard object.isInList(kind), let position = position(of: object),
              position < slots.count, slots[position] === object else { return false }
        slots[position] = nil
        object.leaveList(kind)
        index?[ObjectIdentifier(object)] = nil
        count -= 1
        let reported = position < reportedEnd
        // Compact once holes dominate, so iteration stays proportional to the live count.
        if slots.count > 32 && count < slots.count / 2 { compact() }
        return reported
    }

    mutating func removeAll() {
        for object in slots { object?.leaveList(kind) }
        slots.removeAll()
        index = nil
        count = 0
        reportedEnd = 0
        generation += 1
    }

    var objects: [ManagedObject] {
        // Sized up front (compactMap would grow step by step): a save copies lists of tens of thousands.
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for case let object? in slots { result.append(object) }
        return result
    }

    /// Where `object` is in ``slots``: kept by the object for the inserted list, looked up in ``index`` (made
    /// now if need be) for the others.
    private mutating func position(of object: ManagedObject) -> Int? {
        if kind == .inserted { return Int(object.insertedPosition) }
        if index == nil { buildIndex() }
        return index?[ObjectIdentifier(object)]
    }

    private mutating func buildIndex() {
        var made: [ObjectIdentifier: Int] = [:]
        made.reserveCapacity(count)
        for (position, object) in slots.enumerated() {
            if let object { made[ObjectIdentifier(object)] = position }
        }
        index = made
    }

    private mutating func compact() {
        generation += 1
        reportedEnd = slots[..<min(reportedEnd, slots.count)].reduce(0) { $1 == nil ? $0 : $0 + 1 }
        // Filtered, not compactMapped: assigned back to an array of optionals, `compactMap { $0 }` would wrap each
        // element again and keep every hole.
        slots = slots.filter { $0 != nil }
        if kind == .inserted {
            for (position, object) in slots.enumerated() { object!.setInList(kind, position: position) }
        } else if index != nil {
            buildIndex()
        }
    }
}

extension ManagedObject {
    /// `true` while the object is in its context's list of `kind`.
    @inline(__always)
    func isInList(_ kind: ObjectList.Kind) -> Bool {
        switch kind {
        case .inserted: insertedPosition >= 0
        case .updated: stateBits[.inUpdatedList]
        case .deleted: stateBits[.inDeletedList]
        }
    }

    /// Joins the list of `kind` at `position` (which only the inserted list keeps in the object).
    @inline(__always)
    func setInList(_ kind: ObjectList.Kind, position: Int) {
        switch kind {
        case .inserted: insertedPosition = Int32(position)
        case .updated: stateBits[.inUpdatedList] = true
        case .deleted: stateBits[.inDeletedList] = true
        }
    }

    @inline(__always)
    func leaveList(_ kind: ObjectList.Kind) {
        switch kind {
        case .inserted: insertedPosition = -1
        case .updated: stateBits[.inUpdatedList] = false
        case .deleted: stateBits[.inDeletedList] = false
        }
    }

    /// Leaves every list (the object leaves its context).
    func leaveAllLists() {
        insertedPosition = -1
        stateBits[.inUpdatedList] = false
        stateBits[.inDeletedList] = false
    }
}
