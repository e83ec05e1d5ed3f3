/// The changes since the last did-change notification that the change lists cannot show by their ends (an object
/// joins each list once, and what joined since the last notification is what it reports): a saved object changed
/// again, a new object changed after its insertion was reported, a refresh, a deletion undone, and new objects
/// deleted before anyone heard of them.
///
/// Objects are held until the notification, so their identifiers are not reused meanwhile.
struct NotedChanges {
    /// Objects changed again after they were reported (saved objects already in the updated list, new objects
    /// whose insertion was reported).
    private(set) var updated: [ObjectIdentifier: ManagedObject] = [:]
    /// Objects refreshed (``ManagedObjectContext/refresh(_:mergeChanges:)``, a merge).
    private(set) var refreshed: [ObjectIdentifier: ManagedObject] = [:]
    /// Objects whose reported deletion was undone by inserting them again.
    private(set) var reinserted: [ObjectIdentifier: ManagedObject] = [:]
    /// New objects deleted before their insertion was reported: their deletion is not reported either.
    private(set) var unreported: [ObjectIdentifier: ManagedObject] = [:]

    var isEmpty: Bool { updated.isEmpty && refreshed.isEmpty && reinserted.isEmpty && unreported.isEmpty }

    mutating func noteUpdated(_ object: ManagedObject) {
        updated[ObjectIdentifier(object)] = object
    }

    mutating func noteRefreshed(_ object: ManagedObject) {
        refreshed[ObjectIdentifier(object)] = object
    }

    mutating func noteReinserted(_ object: ManagedObject) {
        reinserted[ObjectIdentifier(object)] = object
    }

    mutating func noteUnreportedDeletion(_ object: ManagedObject) {
        unreported[ObjectIdentifier(object)] = object
    }

    /// An object deleted again after its deletion was undone is not reported as inserted.
    mutating func forgetReinsertion(of object: ManagedObject) {
        reinserted[ObjectIdentifier(object)] = nil
    }

    /// `true` when `object` was a new object deleted before its insertion was reported.
    func isUnreportedDeletion(_ object: ManagedObject) -> Bool {
        unreported[ObjectIdentifier(object)] != nil
    }

    mutating func removeAll() {
        if !updated.isEmpty { updated = [:] }
        if !refreshed.isEmpty { refreshed = [:] }
        if !reinserted.isEmpty { reinserted = [:] }
        if !unreported.isEmpty { unreported = [:] }
    }
}
