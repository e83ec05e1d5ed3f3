internal import CPersistenceSupport
import Foundation

/// Where the value of one `@Managed` property lies in its entity's packed rows, found by ordinal in one load.
struct PackedOrdinalCell {
    /// The raw value of the cell's kind, or ``never`` when typed accessors never go straight to the cell
    /// (relationships, transformable attributes, entities without a packed layout). A plain byte: one comparison.
    let kindCode: UInt8
    static let never: UInt8 = .max
    /// The property's index: its null bit in the row.
    let propertyIndex: UInt8
    /// The cell's first word after the bits word.
    let word: UInt16
    /// `true` when a value of the cell's kind is the attribute's value as it is (no range check, no conversion), so
    /// a new object's setter may write it straight into the cell. Never for a primitive accessor, whose setter goes
    /// the general way to skip the change notifications the direct write makes.
    let takesValueAsIs: Bool

    init(entity: EntityDescription, propertyIndex index: Int, primitive: Bool = false) {
        propertyIndex = UInt8(truncatingIfNeeded: index)
        guard let layout = entity.packedLayout, let attribute = entity.attributeAt[index],
              attribute.attributeType != .transformable else {
            kindCode = Self.never
            word = 0
            takesValueAsIs = false
            return
        }
        let cell = layout.cells[index]
        kindCode = cell.kind.rawValue
        word = cell.word
        takesValueAsIs = !primitive && attribute.attributeType.accepts(Self.sample(of: cell.kind))
    }

    /// A value of the kind a cell holds, for asking an attribute type whether it takes such values as they are.
    private static func sample(of kind: PackedRowLayout.CellKind) -> PersistentValue {
        switch kind {
        case .integer: .integer(0)
        case .double: .double(0)
        case .bool: .bool(false)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .string: .string("")
        default: .null
        }
    }
}

extension EntityDescription {
    /// Installs the ordinal table (see ``ordinalCells``), freeing the one before. Done while the model is made,
    /// before any object of the entity exists.
    func setOrdinalCells(_ cells: [PackedOrdinalCell]) {
        ordinalCells.deallocate()
        let buffer = UnsafeMutableBufferPointer<PackedOrdinalCell>.allocate(capacity: cells.count)
        _ = buffer.initialize(from: cells)
        ordinalCells = buffer
    }
}

/// What a typed accessor learns from a packed row: go the general way, nil, or the cell's word.
@usableFromInline
struct PackedWordRead {
    @usableFromInline enum State: UInt8 { case general, null, value }
    @usableFromInline let state: State
    @usableFromInline let word: UInt64

    @usableFromInline static var general: PackedWordRead { PackedWordRead(state: .general, word: 0) }
    @usableFromInline static var null: PackedWordRead { PackedWordRead(state: .null, word: 0) }

    @usableFromInline init(state: State, word: UInt64) {
        self.state = state
        self.word = word
    }
}

extension ManagedObject {
    // The typed `@Managed` accessors try these first. Each goes straight to the packed row when nothing else has to
    // happen on the way — the concurrency debugger is off, no key paths are being recorded, the value is a plain
    // cell of the accessor's kind — and otherwise answers "general", sending the accessor the general way, which
    // does everything else (queue checks, faults from the store, slots, conversions). A typed read of a fetched
    // object costs a few loads instead of a trip through `PersistentValue`.

    /// The cell of `@Managed` property `ordinal` when a typed read may take it directly; nil for the general way
    /// (which also fires a fault: the first read of a fetched object goes that way, the others come here). Nothing
    /// on this path calls out, so the readers stay leaf functions.
    @inline(__always)
    private func directCell(ordinal: UInt8, kind: PackedRowLayout.CellKind) -> PackedOrdinalCell? {
        guard persistence_concurrency_debugging_enabled() == 0, extras == nil, faultState == .fired,
              packedBlock != nil else { return nil }
        return ordinalCell(ordinal, kind: kind)
    }

    /// The cell of `@Managed` property `ordinal`, when it is of `kind`.
    @inline(__always)
    private func ordinalCell(_ ordinal: UInt8, kind: PackedRowLayout.CellKind) -> PackedOrdinalCell? {
        let cells = entity.ordinalCells
        let position = Int(ordinal)
        guard position < cells.count else { return nil }
        let cell = cells[position]
        return cell.kindCode == kind.rawValue ? cell : nil
    }

    /// The word in the packed cell of `@Managed` attribute `ordinal`, when the cell is of `kind` (an integer, a
    /// double's or date's bits, a Boolean as 0 or 1).
    @usableFromInline
    final func _packedWord(ordinal: UInt8, kind: PackedRowLayout.CellKind) -> PackedWordRead {
        guard let cell = directCell(ordinal: ordinal, kind: kind) else { return .general }
        let row = Int(packedRowIndex)
        return packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { block in
            block.withRow(row) { _, bits, cells in
                if bits.pointee & (1 &<< UInt64(cell.propertyIndex)) != 0 { return .null }
                return PackedWordRead(state: .value, word: (cells + Int(cell.word)).pointee)
            }
        }
    }

    /// The string in the packed cell of `@Managed` attribute `ordinal`: nil for the general way, `.some(nil)` for a
    /// nil value.
    @usableFromInline
    final func _packedString(ordinal: UInt8) -> String?? {
        guard let cell = directCell(ordinal: ordinal, kind: .string) else { return nil }
        let row = Int(packedRowIndex)
        return packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { block in
            block.withRow(row) { _, bits, cells -> String?? in
                if bits.pointee & (1 &<< UInt64(cell.propertyIndex)) != 0 { return .some(nil) }
                return .some(UnsafeRawPointer(cells + Int(cell.word)).assumingMemoryBound(to: String.self).pointee)
            }
        }
    }

    /// The cell a typed setter may write directly: a new object's row, where nothing has to be recorded for
    /// rollback, and an attribute that takes the value as it is. Nil for the general way. (While the context runs
    /// `willSave()`, the change is noted for the save's next round, and once the object's insertion was reported,
    /// for the next did-change notification, as `willChange(at:)` does.)
    @inline(__always)
    private func directCellToSet(ordinal: UInt8, kind: PackedRowLayout.CellKind) -> PackedOrdinalCell? {
        guard persistence_concurrency_debugging_enabled() == 0, insertedFlag, hasWritablePackedRow,
              let cell = ordinalCell(ordinal, kind: kind), cell.takesValueAsIs else { return nil }
        if let context = managedObjectContext {
            if let changes = context.willSaveChanges { changes.note(self) }
            // After its insertion was reported, a change to a new object is reported as an update.
            if context.inserted.reportedInsertion(of: self) { context.noted.noteUpdated(self) }
        }
        return cell
    }

    /// Writes `word` into the packed cell of `@Managed` attribute `ordinal` of a new object; `false` when the
    /// general way must do it.
    private func setPackedWord(_ word: UInt64, ordinal: UInt8, kind: PackedRowLayout.CellKind) -> Bool {
        guard let cell = directCellToSet(ordinal: ordinal, kind: kind) else { return false }
        packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { block in
            block.withRow(Int(packedRowIndex)) { _, bits, cells in
                (cells + Int(cell.word)).pointee = word
                bits.pointee &= ~(1 &<< UInt64(cell.propertyIndex))
            }
        }
        return true
    }

    /// Writes `string` into the packed cell of `@Managed` attribute `ordinal` of a new object, releasing the string
    /// it held; `false` when the general way must do it.
    private func setPackedString(_ string: String, ordinal: UInt8) -> Bool {
        guard let cell = directCellToSet(ordinal: ordinal, kind: .string) else { return false }
        packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { block in
            block.withRow(Int(packedRowIndex)) { _, bits, cells in
                let bit: UInt64 = 1 &<< UInt64(cell.propertyIndex)
                let target = UnsafeMutableRawPointer(cells + Int(cell.word)).assumingMemoryBound(to: String.self)
                if bits.pointee & bit == 0 {
                    target.pointee = string
                } else {
                    target.initialize(to: string)
                    bits.pointee &= ~bit
                }
            }
        }
        return true
    }

    // The typed setters: each is one call from the `@Managed` setter, trying the packed cell first and otherwise
    // going the general way with the value as `PersistentValue`.

    @usableFromInline
    final func _storeInteger(_ value: Int64?, ordinal: UInt8) {
        if let value, setPackedWord(UInt64(bitPattern: value), ordinal: ordinal, kind: .integer) { return }
        _setAttributeValue(value.map(PersistentValue.integer) ?? .null, ordinal: ordinal)
    }

    @usableFromInline
    final func _storeDouble(_ value: Double?, ordinal: UInt8) {
        if let value, setPackedWord(value.bitPattern, ordinal: ordinal, kind: .double) { return }
        _setAttributeValue(value.map(PersistentValue.double) ?? .null, ordinal: ordinal)
    }

    @usableFromInline
    final func _storeBool(_ value: Bool?, ordinal: UInt8) {
        if let value, setPackedWord(value ? 1 : 0, ordinal: ordinal, kind: .bool) { return }
        _setAttributeValue(value.map(PersistentValue.bool) ?? .null, ordinal: ordinal)
    }

    @usableFromInline
    final func _storeDate(_ value: Date?, ordinal: UInt8) {
        if let value, setPackedWord(value.timeIntervalSinceReferenceDate.bitPattern, ordinal: ordinal, kind: .date) { return }
        _setAttributeValue(value.map(PersistentValue.date) ?? .null, ordinal: ordinal)
    }

    @usableFromInline
    final func _storeString(_ value: String?, ordinal: UInt8) {
        if let value, setPackedString(value, ordinal: ordinal) { return }
        _setAttributeValue(value.map(PersistentValue.string) ?? .null, ordinal: ordinal)
    }
}
