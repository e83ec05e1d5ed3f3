/// Objects in the order they were added, with constant-time membership and removal.
struct ObjectList {
    private var slots: [ManagedObject?] = []
    private var positions: [ObjectIdentifier: Int] = [:]

    var count: Int { positions.count }
    var isEmpty: Bool { positions.isEmpty }

    func contains(_ object: ManagedObject) -> Bool { positions[ObjectIdentifier(object)] != nil }

    mutating func append(_ object: ManagedObject) {
        let id = ObjectIdentifier(object)
        guard positions[id] == nil else { return }
        positions[id] = slots.count
        slots.append(object)
    }

    mutating func remove(_ object: ManagedObject) {
        guard let position = positions.removeValue(forKey: ObjectIdentifier(object)) else { return }
        slots[position] = nil
        // Compact once holes dominate, so iteration stays proportional to the live count.
        if slots.count > 32 && positions.count < slots.count / 2 { compact() }
    }

    mutating func removeAll() {
        slots.removeAll()
        positions.removeAll()
    }

    var objects: [ManagedObject] { slots.compactMap { $0 } }

    private mutating func compact() {
        slots = slots.compactMap { $0 }
        for (position, object) in slots.enumerated() { positions[ObjectIdentifier(object!)] = position }
    }
}
