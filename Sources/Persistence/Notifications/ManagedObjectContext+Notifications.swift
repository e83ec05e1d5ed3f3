import Foundation

/// Change notifications, with Core Data's names and user-info keys, posted on the context's own queue.
extension ManagedObjectContext {
    /// Posted after a save, with the saved objects under ``NotificationKey/insertedObjects``,
    /// ``NotificationKey/updatedObjects`` and ``NotificationKey/deletedObjects`` (`Set<ManagedObject>`). Hand it to
    /// ``mergeChanges(fromContextDidSave:)`` of another context. Core Data's older spelling of the same name is
    /// `Notification.Name.NSManagedObjectContextDidSave`.
    public static let didSaveObjectsNotification = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted when ``save()`` starts on a context with changes, before any object's `willSave()`; the object is the
    /// context and there is no user info (ask the context for its ``insertedObjects`` and the rest). Also spelled
    /// `Notification.Name.NSManagedObjectContextWillSave`.
    public static let willSaveObjectsNotification = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted after a save with the saved objects' IDs under the `…ObjectIDs` keys (`Set<ManagedObjectID>`): safe to
    /// read on any queue.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted when objects of the context change: by ``processPendingChanges()``, before each save, after a merge,
    /// and by ``rollback()`` and ``reset()``. Also spelled `Notification.Name.NSManagedObjectContextObjectsDidChange`.
    ///
    /// Each notification reports what changed since the one before, as sets of objects: under
    /// ``NotificationKey/insertedObjects`` new objects (and merged insertions, and deletions undone),
    /// ``NotificationKey/updatedObjects`` objects changed — every change, so an object changed again after it was
    /// reported is reported again, and a new object changed after its insertion was reported is reported here —,
    /// ``NotificationKey/deletedObjects`` deletions (and merged deletions), ``NotificationKey/refreshedObjects``
    /// objects refreshed by ``refresh(_:mergeChanges:)`` or a merge. An object is under one key at most: a new
    /// object only as inserted, a deleted one only as deleted; a new object deleted before its insertion was
    /// reported is not reported at all. ``rollback()`` reports the new objects it drops as deleted, the deletions it
    /// undoes as inserted and the objects it sets back as updated (Apple does not document what its rollback
    /// posts). ``reset()`` posts ``NotificationKey/invalidatedAllObjects`` alone.
    public static let didChangeObjectsNotification = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted by a context after it merged changes (``mergeChanges(fromContextDidSave:)``, automatic merging,
    /// ``mergeChanges(fromRemoteContextSave:into:)``), with the merged objects' IDs under the `…ObjectIDs` keys
    /// (`Set<ManagedObjectID>`) — what it inserted as faults, refreshed, and removed.
    public static let didMergeChangesObjectIDsNotification = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")

    /// The keys of the notifications' `userInfo`.
    public enum NotificationKey: String, Sendable {
        /// The inserted objects, a `Set<ManagedObject>` (Core Data's `NSInsertedObjectsKey`, whose value is
        /// `"inserted"` too).
        case insertedObjects = "inserted"
        /// The updated objects (`NSUpdatedObjectsKey`).
        case updatedObjects = "updated"
        /// The deleted objects (`NSDeletedObjectsKey`).
        case deletedObjects = "deleted"
        /// The objects refreshed by a merge (`NSRefreshedObjectsKey`).
        case refreshedObjects = "refreshed"
        /// The inserted objects' IDs, a `Set<ManagedObjectID>` (`NSInsertedObjectIDsKey`).
        case insertedObjectIDs = "inserted_objectIDs"
        /// The updated objects' IDs (`NSUpdatedObjectIDsKey`).
        case updatedObjectIDs = "updated_objectIDs"
        /// The deleted objects' IDs (`NSDeletedObjectIDsKey`).
        case deletedObjectIDs = "deleted_objectIDs"
        /// The refreshed objects' IDs (`NSRefreshedObjectIDsKey`).
        case refreshedObjectIDs = "refreshed_objectIDs"
        /// Objects the context can no longer reach in their store (`NSInvalidatedObjectsKey`). Core Data reports
        /// them when a store is removed from under a context; Persistence never removes a store, so never posts it.
        case invalidatedObjects = "invalidated"
        /// The IDs of invalidated objects (`NSInvalidatedObjectIDsKey`); never posted here, as above.
        case invalidatedObjectIDs = "invalidated_objectIDs"
        /// Present when every object of the context was invalidated (`NSInvalidatedAllObjectsKey`): posted by
        /// ``ManagedObjectContext/reset()``, with the IDs of the objects the context forgot (`[ManagedObjectID]`, as
        /// Core Data's header says of this key).
        case invalidatedAllObjects = "invalidatedAll"
    }

    /// Runs the delete rules of pending deletions and posts ``didChangeObjectsNotification`` for the changes made
    /// since the last one (Core Data does this at the end of each event; here a ``perform(_:)`` block ends with it,
    /// as Core Data's does, and elsewhere call it when you want observers told).
    ///
    /// Like the end of a `perform` block, it also lets go of the objects registered since the last time that
    /// nothing holds (see ``retainsRegisteredObjects``).
    public func processPendingChanges() {
        propagateDeletes()
        postChangeNotification()
        sweepAtDrainPoint()
    }

    /// ``processPendingChanges()``, returning the inserted objects just reported.
    func processPendingChangesReportingInserts() -> Set<ManagedObject> {
        propagateDeletes()
        return postChangeNotification()
    }

    /// Posts ``didChangeObjectsNotification`` for the objects changed since the last one, if any: the change lists'
    /// new members, what ``noted`` holds, and what a merge brought (`merged` insertions, `refreshed` and
    /// `removed` objects). An object is reported under one key: a new object only as inserted, a deleted one only
    /// as deleted.
    /// Returns the set of inserted objects it reported, so a save can hand the same set to its did-save notification.
    @discardableResult
    func postChangeNotification(merged: Set<ManagedObject> = [], refreshed: Set<ManagedObject> = [],
                                removed: Set<ManagedObject> = []) -> Set<ManagedObject> {
        var inserted = self.inserted.unreportedObjects()
        if !merged.isEmpty { inserted.formUnion(merged) }
        var updated = self.updated.unreportedObjects()
        var deleted = self.deleted.unreportedObjects()
        if !removed.isEmpty { deleted.formUnion(removed) }
        var refreshed = refreshed
        if !noted.isEmpty {
            for object in noted.reinserted.values where !object.deletedFlag { inserted.insert(object) }
            for object in noted.unreported.values { deleted.remove(object) }
            updated.formUnion(noted.updated.values)
            refreshed.formUnion(noted.refreshed.values)
        }
        if !updated.isEmpty {
            updated.subtract(inserted)
            updated.subtract(deleted)
        }
        if !refreshed.isEmpty { refreshed.subtract(deleted) }
        markNotified()
        let posted = postDidChange(inserted: inserted, updated: updated, deleted: deleted, refreshed: refreshed)
        if !posted, let ids = mergedUpdateIDs, !ids.isEmpty {
            NotificationCenter.default.post(name: Self.mergedUnregisteredUpdatesNotification, object: self)
        }
        return inserted
    }

    /// Posts ``didChangeObjectsNotification`` with these sets, unless all are empty; `true` when it posted.
    @discardableResult
    func postDidChange(inserted: Set<ManagedObject>, updated: Set<ManagedObject>, deleted: Set<ManagedObject>,
                       refreshed: Set<ManagedObject> = []) -> Bool {
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty || !refreshed.isEmpty else { return false }
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: [
            NotificationKey.insertedObjects.rawValue: inserted,
            NotificationKey.updatedObjects.rawValue: updated,
            NotificationKey.deletedObjects.rawValue: deleted,
            NotificationKey.refreshedObjects.rawValue: refreshed,
        ])
        return true
    }

    /// Posted (inside Persistence only) by a merge that changed no object this context holds but updated some it
    /// does not, while ``mergedUpdateIDs`` names them: a fetched results controller must still look at them, though
    /// the context has no change to report.
    static let mergedUnregisteredUpdatesNotification = Notification.Name("Persistence.MergedUnregisteredUpdates")

    /// Posts the did-save notifications and tells the contexts that merge automatically and the `saves()` streams.
    func postSaveNotifications(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject],
                               deletedIDs: [ManagedObjectID], insertedSet: Set<ManagedObject>? = nil) {
        func ids(_ objects: [ManagedObject]) -> Set<ManagedObjectID> {
            var ids = Set<ManagedObjectID>(minimumCapacity: objects.count)
            for object in objects { ids.insert(object.objectID) }
            return ids
        }
        let summary = ContextDidSave(insertedObjectIDs: ids(inserted), updatedObjectIDs: ids(updated),
                                     deletedObjectIDs: Set(deletedIDs))
        guard !summary.isEmpty else { return }
        NotificationCenter.default.post(name: Self.didSaveObjectsNotification, object: self, userInfo: [
            // The set reported by the did-change notification at the start of the save, when it holds the same objects.
            NotificationKey.insertedObjects.rawValue: insertedSet.flatMap { $0.count == inserted.count ? $0 : nil } ?? Set(inserted),
            NotificationKey.updatedObjects.rawValue: Set(updated),
            NotificationKey.deletedObjects.rawValue: Set(deleted),
        ])
        NotificationCenter.default.post(name: Self.didSaveObjectIDsNotification, object: self, userInfo: [
            NotificationKey.insertedObjectIDs.rawValue: summary.insertedObjectIDs,
            NotificationKey.updatedObjectIDs.rawValue: summary.updatedObjectIDs,
            NotificationKey.deletedObjectIDs.rawValue: summary.deletedObjectIDs,
        ])
        saveObservers.yield(summary)
        if parent == nil { persistentStoreCoordinator?.contextDidSave(self, summary) }
        for child in mergingChildren.contexts {
            child.perform { child.merge(summary) }
        }
    }

    /// A stream of this context's saves, as object IDs. It ends when the caller stops iterating.
    ///
    /// ```swift
    /// for await save in background.saves() { print(save.insertedObjectIDs.count, "new objects") }
    /// ```
    @_spi(TestHarness) public func saves() -> AsyncStream<ContextDidSave> {
        saveObservers.makeStream()
    }

    // MARK: - Merging

    /// Brings another context's save into this one, as Core Data does: inserted objects are registered here as
    /// faults (saved already, so not pending insertions of this context), updated objects registered here are
    /// refreshed (keeping their own unsaved changes; updated objects not registered stay so), and deleted ones leave
    /// the context. Observers get ``didChangeObjectsNotification`` with the merged insertions under
    /// ``NotificationKey/insertedObjects``, the refreshed objects under ``NotificationKey/refreshedObjects`` and the
    /// removed ones under ``NotificationKey/deletedObjects``.
    /// Call it on this context's queue, with a notification from a context of the same store.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        checkQueue("mergeChanges(fromContextDidSave:)")
        merge(Self.summary(from: notification.userInfo ?? [:]))
    }

    /// Merges a save described by object IDs or their URIs into each context on its own queue — for changes
    /// another process or a batch request made. Each context merges as in ``mergeChanges(fromContextDidSave:)``.
    ///
    /// The dictionary takes what Apple documents and nothing else: the keys `NSInsertedObjectsKey`,
    /// `NSUpdatedObjectsKey` and `NSDeletedObjectsKey` (``NotificationKey/insertedObjects``…), each with an array of
    /// ``ManagedObjectID``s or of their ``ManagedObjectID/uriRepresentation()`` URLs:
    ///
    /// ```swift
    /// ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: deletedIDs],
    ///                                   into: [container.viewContext])
    /// ```
    ///
    /// What Core Data does with anything else — the `…_objectIDs` keys of ``didSaveObjectIDsNotification``, a set,
    /// managed objects, a URL that names no object — is undocumented. Persistence takes the strict reading: it
    /// merges none of it and records the mistake on each context, so that context's next ``save()`` throws it (and
    /// a test harness hears of it when the context goes away unsaved). A did-save notification as it was posted
    /// goes to ``mergeChanges(fromContextDidSave:)`` instead, which takes its sets and keys.
    public static func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any],
                                    into contexts: [ManagedObjectContext]) {
        let (summary, mistakes) = remoteSummary(from: changeNotificationData)
        for context in contexts {
            context.performAndWait {
                for mistake in mistakes { context.recordMisuse(mistake) }
                context.merge(summary)
            }
        }
    }

    /// The IDs of a remote save, read as Apple documents the dictionary, and a mistake for each entry that is not.
    static func remoteSummary(from data: [AnyHashable: Any]) -> (ContextDidSave, [PersistenceError]) {
        let method = "mergeChanges(fromRemoteContextSave:into:)"
        let documented: [NotificationKey] = [.insertedObjects, .updatedObjects, .deletedObjects]
        var ids: [NotificationKey: Set<ManagedObjectID>] = [:]
        var mistakes: [PersistenceError] = []
        func refuse(_ what: String) {
            mistakes.append(PersistenceError(.coreData, "\(method) \(what); it was not merged. Apple documents the keys NSInsertedObjectsKey, NSUpdatedObjectsKey and NSDeletedObjectsKey (\"inserted\", \"updated\", \"deleted\"), each with an array of object IDs or of their URIs; what Core Data does with anything else is undocumented."))
        }
        for (rawKey, value) in data.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            guard let name = rawKey.base as? String else {
                refuse("was given the key \(rawKey)")
                continue
            }
            guard let key = NotificationKey(rawValue: name), documented.contains(key) else {
                var what = "was given the key \"\(name)\""
                if name.hasSuffix("_objectIDs") {
                    what += " (a did-save-object-IDs notification's key: hand such a notification to mergeChanges(fromContextDidSave:), or put its IDs, as an array, under \"\(name.dropLast("_objectIDs".count))\")"
                }
                refuse(what)
                continue
            }
            let items: [Any]
            if let array = value as? [Any] {
                items = array
            } else if let array = value as? NSArray {
                items = array.map { $0 }
            } else {
                let kind = value is NSSet || "\(type(of: value))".hasPrefix("Set<") ? "a set" : "\(type(of: value))"
                refuse("was given \(kind) under \"\(name)\", not an array")
                continue
            }
            for item in items {
                switch item {
                case let id as ManagedObjectID:
                    ids[key, default: []].insert(id)
                case let uri as URL:
                    if let id = ManagedObjectID(uriRepresentation: uri) {
                        ids[key, default: []].insert(id)
                    } else {
                        refuse("was given the URL \(uri) under \"\(name)\", which is no object ID's URI")
                    }
                case let object as ManagedObject:
                    refuse("was given the managed object \(object.objectID) under \"\(name)\", not its object ID")
                default:
                    refuse("was given \(type(of: item)) under \"\(name)\", not an object ID or its URI")
                }
            }
        }
        let summary = ContextDidSave(insertedObjectIDs: ids[.insertedObjects] ?? [],
                                     updatedObjectIDs: ids[.updatedObjects] ?? [],
                                     deletedObjectIDs: ids[.deletedObjects] ?? [])
        return (summary, mistakes)
    }

    /// Everything changed so far has been notified.
    func markNotified() {
        inserted.markReported()
        updated.markReported()
        deleted.markReported()
        noted.removeAll()
    }

    /// Tells observers that every object of the context was invalidated (``reset()``), as Core Data does: the
    /// notification carries ``NotificationKey/invalidatedAllObjects`` with the IDs of the objects the context
    /// forgot (Core Data's header: "the values for these keys are arrays of objectIDs").
    func postInvalidatedAll(_ ids: [ManagedObjectID]) {
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: [
            NotificationKey.invalidatedAllObjects.rawValue: ids,
        ])
    }

    /// Applies a save summary to this context.
    func merge(_ summary: ContextDidSave) {
        // IDs of another store name nothing here: report the mix-up at the next save instead of ignoring it.
        syncStoreIdentifier()
        let all = summary.insertedObjectIDs.union(summary.updatedObjectIDs).union(summary.deletedObjectIDs)
        if let foreign = all.first(where: { !$0.isTemporaryID && $0.storeIdentifier != registry.storeIdentifier }) {
            recordMisuse(PersistenceError(.coreData,
                                          "Merged a save of another store (\(foreign.storeIdentifier)) into a context of store \(registry.storeIdentifier); its objects were ignored. Merge saves of contexts on the same store only.",
                                          objectID: foreign))
        }
        // Merging is moving to the newest data: a pinned context follows it.
        advanceQueryGeneration()
        var faultedIn = Set<ManagedObject>()
        var refreshed = Set<ManagedObject>()
        var removed = Set<ManagedObject>()
        for id in summary.insertedObjectIDs where !summary.deletedObjectIDs.contains(id) {
            if let object = mergedInsertion(id) { faultedIn.insert(object) }
        }
        for id in summary.updatedObjectIDs {
            guard let object = registeredObject(forID: id), !object.insertedFlag else { continue }
            refresh(object, mergeChanges: true)
            refreshed.insert(object)
        }
        for id in summary.deletedObjectIDs {
            guard let object = registeredObject(forID: id) else { continue }
            updated.remove(object)
            deleted.remove(object)
            unregister(object)
            object.markInaccessible()
            // Out of the registry, the context can no longer clear this pointer when it goes away.
            object.managedObjectContext = nil
            removed.insert(object)
        }
        mergedUpdateIDs = summary.updatedObjectIDs
        postChangeNotification(merged: faultedIn, refreshed: refreshed, removed: removed)
        mergedUpdateIDs = nil
        guard !faultedIn.isEmpty || !refreshed.isEmpty || !removed.isEmpty else { return }
        NotificationCenter.default.post(name: Self.didMergeChangesObjectIDsNotification, object: self, userInfo: [
            NotificationKey.insertedObjectIDs.rawValue: Set(faultedIn.map(\.objectID)),
            NotificationKey.updatedObjectIDs.rawValue: Set(refreshed.map(\.objectID)),
            NotificationKey.deletedObjectIDs.rawValue: Set(removed.map(\.objectID)),
        ])
    }

    /// The object another context saved as new, registered here as a fault; `nil` when the ID names nothing this
    /// context can read (another store or model, or a temporary ID no ancestor holds) or is registered already.
    private func mergedInsertion(_ id: ManagedObjectID) -> ManagedObject? {
        guard let entity = model?.entitiesByName[id.entityName],
              id.isTemporaryID || id.storeIdentifier == registry.storeIdentifier else { return nil }
        if let registered = registeredObject(forID: id) {
            // Read before the save made its row (so found missing): the row exists now.
            guard registered.isInaccessible, !registered.insertedFlag, !registered.deletedFlag else { return nil }
            registered.inaccessible = false
            registered.turnIntoFault()
            return registered
        }
        // Only a child reads objects under temporary IDs: those its ancestors still hold.
        if id.isTemporaryID, parent == nil || parentState(of: id) == nil { return nil }
        let object = entity.managedObjectClass.init(fetchedEntity: entity, objectID: id.inScope(of: entity), context: self)
        register(object)
        return object
    }

    /// Object IDs from a notification's user info: sets or arrays of objects, IDs or URIs.
    static func summary(from info: [AnyHashable: Any]) -> ContextDidSave {
        func ids(_ keys: [NotificationKey]) -> Set<ManagedObjectID> {
            var result = Set<ManagedObjectID>()
            for key in keys {
                guard let value = info[key.rawValue] else { continue }
                let items: [Any]
                switch value {
                case let set as Set<ManagedObject>: items = Array(set)
                case let set as Set<ManagedObjectID>: items = Array(set)
                case let set as Set<URL>: items = Array(set)
                case let array as [Any]: items = array
                default: items = [value]
                }
                for item in items {
                    switch item {
                    case let object as ManagedObject: result.insert(object.objectID)
                    case let id as ManagedObjectID: result.insert(id)
                    case let uri as URL: if let id = ManagedObjectID(uriRepresentation: uri) { result.insert(id) }
                    default: continue
                    }
                }
            }
            return result
        }
        return ContextDidSave(insertedObjectIDs: ids([.insertedObjects, .insertedObjectIDs]),
                              updatedObjectIDs: ids([.updatedObjects, .updatedObjectIDs]),
                              deletedObjectIDs: ids([.deletedObjects, .deletedObjectIDs]))
    }
}
