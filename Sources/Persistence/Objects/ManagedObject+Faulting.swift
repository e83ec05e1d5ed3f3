extension ManagedObject {
    /// Takes a row's values as its committed state (and as its current values).
    func adopt(_ row: StoreRow, asFault: Bool) {
        if let packed = row.packed {
            adoptPacked(Unmanaged.passUnretained(packed.block), row: packed.row, version: row.version, asFault: asFault)
            return
        }
        slots = row.slots
        committedSlots = nil
        version = row.version
        changedIndexes = []
        faultState = asFault ? .faultWithRow : .fired
        if !asFault { awakeFromFetch() }
    }

    /// Takes row `row` of `block` as its committed state (and as its current values), retaining the block.
    @inline(__always)
    func adoptPacked(_ block: Unmanaged<PackedRowBlock>, row: Int, version: Int64, asFault: Bool) {
        setPackedRow(block.takeUnretainedValue(), row: row)
        if extras != nil {
            committedSlots = nil
            changedIndexes = []
        }
        self.version = version
        faultState = asFault ? .faultWithRow : .fired
        if !asFault { awakeFromFetch() }
    }

    /// Turns the object back into a fault without a row: its values are read again on next use.
    func turnIntoFault() {
        // An object that is a fault already is not turned into one: its hooks do not run (nor would they have
        // values to see without firing it).
        let fired = faultState == .fired
        if fired { willTurnIntoFault() }
        defer { if fired { didTurnIntoFault() } }
        slots = []
        committedSlots = nil
        changedIndexes = []
        faultState = .faultWithoutRow
    }

    /// The row behind a fault is gone: the object reads as deleted with empty values
    /// (Core Data's `shouldDeleteInaccessibleFaults`).
    func markInaccessible() {
        slots = Self.emptySlots(of: entity)
        committedSlots = nil
        changedIndexes = []
        faultState = .fired
        inaccessible = true
    }

    /// `true` for a fault whose row was gone when it fired.
    var isInaccessible: Bool { inaccessible }

    /// Detaches the object from its context and drops its values (after reset, or a saved deletion).
    func invalidate() {
        let fired = faultState == .fired && !inaccessible
        if fired { willTurnIntoFault() }
        defer { if fired { didTurnIntoFault() } }
        slots = []
        committedSlots = nil
        changedIndexes = []
        faultState = .faultWithoutRow
        insertedFlag = false
        deletedFlag = false
        holdsUnfittingValue = false
        leaveAllLists()
        batch = nil
        managedObjectContext = nil
    }
}
