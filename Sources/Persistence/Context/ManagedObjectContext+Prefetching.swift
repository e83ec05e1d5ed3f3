extension ManagedObjectContext {
    /// Before delete rules run over `objects` (deleted, so fired): reads the to-many relationships the rules walk
    /// (cascade and nullify) that are still faults, with their objects' rows, in one statement per relationship and
    /// 500 owners — instead of one query per owner for the keys and then one per related object to fire it, which
    /// is what deleting 10,000 decks with 100,000 cards would otherwise cost.
    ///
    /// In a child context, what the parent chain holds wins, as in a fetch: an owner whose relationship a parent
    /// has in memory is left to read it from there, and a related object with unsaved changes in a parent reads
    /// through the parent rather than from the row. Relationships into an entity with subentities are left to be
    /// read one by one.
    func prefetchRelationshipsForDelete(_ objects: ArraySlice<ManagedObject>) {
        guard persistentStoreCoordinator != nil else { return }
        var groups: [PrefetchGroup: [ManagedObject]] = [:]
        var order: [PrefetchGroup] = []
        for object in objects where !object.entity.toManyIndexes.isEmpty && object.faultState == .fired {
            guard object.objectID.primaryKey != nil else { continue }
            for index in object.entity.toManyIndexes {
                let relationship = object.entity.relationshipAt[index]!
                guard relationship.deleteRule == .cascadeDeleteRule || relationship.deleteRule == .nullifyDeleteRule,
                      !relationship.destinationEntity.hasSubentities,
                      case .toMany(nil) = object.slots[index] else { continue }
                if parent != nil, ancestorToMany(relationship, of: object.objectID) != nil { continue }
                let group = PrefetchGroup(entity: ObjectIdentifier(object.entity), index: index)
                if groups[group] == nil { order.append(group) }
                groups[group, default: []].append(object)
            }
        }
        for group in order {
            let owners = groups[group]!
            let entity = owners[0].entity
            let relationship = entity.relationshipAt[group.index]!
            var byKey: [Int64: ManagedObject] = [:]
            for owner in owners { byKey[owner.objectID.primaryKey!] = owner }
            let keys = Array(byKey.keys)
            let ancestors = parent == nil ? PendingChanges() : ancestorPendingChanges(for: relationship.destinationEntity)
            let destination = relationship.destinationEntity!
            syncStoreIdentifier()
            let ownStore = registry.storeIdentifier == persistentStoreCoordinator?.storeIdentifier
            // An object already here with its values needs no row (a parent absorbing its child's deletions has
            // every related object already): the store is told their keys, a plain value, rather than asking.
            var known = ownStore ? registry.permanentKeys(entityIndex: destination.index) { $0.faultState != .faultWithoutRow }
                                 : StoreKeySet()
            // A chunk of owners per read: the store binds their keys as one list.
            for chunk in SQLKeyList.chunks(of: keys) {
                // The store reads the rows; the objects are made here, once its lock is released.
                let read = try? withReadStore { store in
                    (rows: try store.relatedRows(relationship, of: entity, ownerKeys: chunk, skippingRowsOf: known),
                     ids: store.permanentIDs)
                }
                var loaded: [Int64: RelatedObjects]?
                if let read {
                    var related: [Int64: RelatedObjects] = [:]
                    for (owner, key, row) in read.rows {
                        guard let row else {
                            related[owner, default: RelatedObjects()].append(registry.object(entityIndex: destination.index, primaryKey: key)!)
                            continue
                        }
                        let object: ManagedObject
                        if ancestors.isEmpty {
                            object = self.object(for: row, entity: row.entity, ids: read.ids, asFault: true, ownStore: ownStore)
                        } else {
                            let id = read.ids.id(of: row.entity, primaryKey: row.primaryKey)
                            object = ancestors.changed.contains(id) || ancestors.deleted.contains(id)
                                ? self.object(with: id)
                                : self.object(for: row, entity: row.entity, ids: read.ids, asFault: true, ownStore: ownStore)
                        }
                        related[owner, default: RelatedObjects()].append(object)
                        // It now has its values: a later chunk sharing it needs no row of it either.
                        if ownStore && object.faultState != .faultWithoutRow { known.insert(key) }
                    }
                    loaded = related
                }
                // On a read error the relationships stay faults and are read one by one, as without prefetching.
                guard let loaded else { continue }
                for key in chunk {
                    byKey[key]!.adoptLoadedToMany(loaded[key] ?? RelatedObjects(), at: group.index)
                }
            }
        }
    }

    private struct PrefetchGroup: Hashable {
        let entity: ObjectIdentifier
        let index: Int
    }
}

extension ManagedObject {
    /// Takes the objects of to-many `index` read from the store, as a first read of the relationship would.
    func adoptLoadedToMany(_ related: RelatedObjects, at index: Int) {
        guard case .toMany(nil) = slots[index] else { return }
        slots[index] = .toMany(related)
        if var committed = committedSlots, case .toMany(nil) = committed[index] {
            committed[index] = .toMany(related)
            committedSlots = committed
        }
    }
}
