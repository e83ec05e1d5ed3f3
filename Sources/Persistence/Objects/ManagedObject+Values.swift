import Foundation

extension ManagedObject {
    // MARK: - Reading

    /// The current slot of property `index`, firing the fault first.
    func slot(at index: Int) -> PropertySlot {
        if faultState != .fired { fireFault() }
        if let packedRow { return packedRow.slot(at: index) }
        return storedSlots[index]
    }

    /// Fills a fault: from the row it was fetched with, or from the store.
    func fireFault() {
        switch faultState {
        case .fired:
            return
        case .faultWithRow:
            faultState = .fired
            awakeFromFetch()
        case .faultWithoutRow:
            guard let context = managedObjectContext else {
                // A fault whose context is gone cannot load anything: it reads as empty.
                slots = Self.emptySlots(of: entity)
                faultState = .fired
                return
            }
            if let batch {
                self.batch = nil
                context.fulfill(batch)
                if faultState == .faultWithRow {
                    faultState = .fired
                    awakeFromFetch()
                    return
                }
            }
            context.checkQueue("\(entity.entityName) fault")
            context.fulfillFault(self)
        }
    }

    static func emptySlots(of entity: EntityDescription) -> [PropertySlot] {
        entity.properties.map { property in
            switch property.role {
            case .attribute: .value(.null)
            case .relationship(let r): r.isToMany ? .toMany(RelatedObjects()) : .toOne(nil)
            }
        }
    }

    /// The attribute value of property `index`.
    func attributeValue(at index: Int) -> PersistentValue {
        if faultState != .fired { fireFault() }
        // Read without a retain of the row: this object holds it for the whole call.
        if packedBlock != nil {
            let row = Int(packedRowIndex)
            return packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.value(row: row, at: index) }
        }
        // Matched where it lies: copying the whole slot first costs a copy and a destroy of the enum per read.
        return storedSlots.withUnsafeBufferPointer { slots in
            if case .value(let value) = slots[index] { return value }
            return .null
        }
    }

    /// `true` when attribute `index` is nil: a bit test for a packed row, where reading the value would build it
    /// (validation asks this of every required attribute of every object it saves).
    func attributeIsNil(at index: Int) -> Bool {
        if faultState != .fired { fireFault() }
        if packedBlock != nil {
            let row = Int(packedRowIndex)
            return packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.isNull(row: row, at: index) }
        }
        return attributeValue(at: index).isNull
    }

    /// The related object of to-one property `index`, resolving a stored key to an object.
    func toOneObject(at index: Int) -> ManagedObject? {
        switch slot(at: index) {
        case .toOne(let object):
            return object
        case .toOneKey(let pk):
            guard let context = managedObjectContext, let relationship = entity.relationshipAt[index] else { return nil }
            let object = context.object(forPrimaryKey: pk, entity: relationship.destinationEntity)
            slots[index] = .toOne(object)
            return object
        default:
            return nil
        }
    }

    /// The related objects of to-many property `index`, loading them from the store the first time.
    func toManyObjects(at index: Int) -> RelatedObjects {
        if case .toMany(let related?) = slot(at: index) { return related }
        guard let context = managedObjectContext, let relationship = entity.relationshipAt[index] else {
            return RelatedObjects()
        }
        let related = context.loadToMany(relationship, of: self)
        adoptLoadedToMany(related, at: index)
        return related
    }

    /// Property `index` as the typed `@Managed` wrappers and `value(forKey:)` see it.
    func storage(at index: Int) -> ManagedStorage {
        switch entity.kinds[index] {
        case .attribute: return .value(attributeValue(at: index))
        case .toOne: return .objects(toOneObject(at: index).map { [$0] } ?? [])
        case .toMany: return .objects(toManyObjects(at: index).objects)
        }
    }

    // MARK: - Writing

    /// Records that property `index` is about to change (for rollback and `changedValues()`, and for a save's
    /// rounds of `willSave()`).
    @inline(__always)
    func willChange(at index: Int) {
        // A new object has nothing to record, unless its context is running `willSave()` (which must see every
        // change) or has reported its insertion (observers must hear of the change): the common case of a bulk
        // insert costs one test, and a context read.
        if insertedFlag && faultState == .fired, let context = managedObjectContext, context.willSaveChanges == nil,
           !context.inserted.reportedInsertion(of: self) { return }
        recordChange(at: index)
    }

    private func recordChange(at index: Int) {
        if faultState != .fired { fireFault() }
        guard let context = managedObjectContext, context.primitiveWriter !== self else { return }
        if let changes = context.willSaveChanges { changes.note(self) }
        guard !insertedFlag else {
            // A new object's change is news only once its insertion was reported.
            if context.inserted.reportedInsertion(of: self) { context.noted.noteUpdated(self) }
            return
        }
        if committedSlots == nil { committedSlots = slots }
        if changedIndexes.insert(index).inserted, changedIndexes.count == 1 {
            context.objectDidChange(self)
        } else {
            // Changed before: the object may have been reported already, and this change is news too.
            context.noted.noteUpdated(self)
        }
    }

    /// Sets attribute `index`. A value that does not fit the attribute is kept as given and reported when the
    /// context saves (the typed setters cannot throw).
    @inline(__always)
    func setAttributeValue(_ value: PersistentValue, at index: Int) {
        willChange(at: index)
        guard case .attribute(let type) = entity.kinds[index] else { return }
        let fitted: PersistentValue
        if type.accepts(value) {
            fitted = value
        } else if let coerced = type.coerce(value) {
            fitted = coerced
        } else {
            slots[index] = .value(value)
            holdsUnfittingValue = true
            return
        }
        // Still packed after willChange: no committed values to keep (a new object), so the row changes in place.
        if hasWritablePackedRow {
            let row = Int(packedRowIndex)
            let replaced = packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { block in
                block.replace(fitted, row: row, at: index)
            }
            if replaced { return }
        }
        slots[index] = .value(fitted)
    }

    /// Sets property `index` from the typed wrappers' storage form.
    func setStorage(_ storage: ManagedStorage, at index: Int) {
        switch storage {
        case .value(let value):
            setAttributeValue(value, at: index)
        case .objects(let objects):
            guard let relationship = entity.relationshipAt[index] else { return }
            do {
                try setRelationship(relationship, at: index, to: objects)
            } catch let error as PersistenceError {
                managedObjectContext?.recordMisuse(error)
            } catch {}
        case .unacceptable(let given):
            guard let relationship = entity.relationshipAt[index] else { return }
            managedObjectContext?.recordMisuse(PersistenceError(
                .managedObjectValidation,
                "Unacceptable type of value for \(entity.entityName).\(relationship.name): an element of type \(given), not a \(relationship.destinationEntityName) object; the relationship keeps its objects.",
                object: self, key: relationship.name))
        }
    }
}
