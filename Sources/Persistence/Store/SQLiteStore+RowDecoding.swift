import Foundation

/// Turning the current row of a statement into a ``StoreRow``: packed into a ``PackedRowBlock`` row when the entity
/// has a layout and every value fits it, otherwise as slots.
extension SQLiteStore {
    /// Turns the current row of a family query (see ``FamilyProjection``) into the values of `table`'s entity,
    /// reading its columns at `positions`.
    func decodeRow(_ statement: SQLiteStatement, table: EntityTable, positions: [Int32],
                   into rows: inout PackedRowAllocator) -> StoreRow {
        decodeRow(statement, table: table, into: &rows, column: { positions[$0] })
    }

    /// Turns the current row of `statement` (projected as `Z_PK, Z_OPT, columns…`) into the values of `table`'s
    /// entity.
    func decodeRow(_ statement: SQLiteStatement, table: EntityTable, into rows: inout PackedRowAllocator) -> StoreRow {
        decodeRow(statement, table: table, into: &rows, column: { Self.plainColumn($0) })
    }

    /// The current row, reading the `n`th stored property from `column(n)`: packed when the entity has a layout
    /// and every value fits it, otherwise as slots.
    @inline(__always)
    private func decodeRow(_ statement: SQLiteStatement, table: EntityTable, into rows: inout PackedRowAllocator,
                           column: (Int) -> Int32) -> StoreRow {
        let entity = table.entity
        if let layout = entity.packedLayout,
           let packed = packRow(statement, entity: entity, layout: layout, into: &rows, column: column) {
            return StoreRow(entity: entity, primaryKey: statement.int64(at: 0), version: statement.int64(at: 1), packed: packed)
        }
        return decodeSlots(statement, entity: entity, column: column)
    }

    /// The current row as slots, which keep any value, reading the `n`th stored property from `column(n)`. (Not
    /// inlined: it is the rare way, and inlined into a fetch's loop it made every packed row slower.)
    @inline(never)
    func decodeSlots(_ statement: SQLiteStatement, entity: EntityDescription, column: (Int) -> Int32) -> StoreRow {
        var slots: [PropertySlot] = []
        slots.reserveCapacity(entity.properties.count)
        let hasTransients = entity.hasTransientAttributes
        var next = 0
        for kind in entity.kinds {
            switch kind {
            case .attribute where hasTransients && entity.isTransient(at: slots.count):
                // No column: an object read from the store starts with the default (`slots.count` is this property).
                slots.append(entity.initialSlots[slots.count])
            case .attribute(let type):
                slots.append(.value(decodeValue(statement, column: column(next), type: type)))
                next += 1
            case .toMany:
                slots.append(.toMany(nil))
            case .toOne:
                let position = column(next)
                let key = statement.int64(at: position)
                slots.append(key == 0 && statement.isNull(at: position) ? .toOne(nil) : .toOneKey(key))
                next += 1
            }
        }
        return StoreRow(entity: entity, primaryKey: statement.int64(at: 0), version: statement.int64(at: 1), slots: slots)
    }

    /// The current row packed by `layout` into the next row `rows` hands out, reading the `n`th stored property
    /// from `column(n)`; nil when a value does not fit its cell (the row is taken back, and the caller decodes
    /// slots, which keep any value).
    @inline(__always)
    private func packRow(_ statement: SQLiteStatement, entity: EntityDescription, layout: PackedRowLayout,
                         into rows: inout PackedRowAllocator, column: (Int) -> Int32) -> PackedRow? {
        let (block, row) = rows.nextUnretainedRow(for: layout)
        guard pack(statement, entity: entity, layout: layout, block: block, row: row, column: column) else { return nil }
        return PackedRow(block: block.takeUnretainedValue(), row: row)
    }

    /// Packs the current row into row `row` of `block` (which the caller keeps alive); `false` when a value does
    /// not fit its cell (the row is then taken back, and the caller decodes slots, which keep any value).
    ///
    /// Numbers, booleans, dates and to-one keys go straight from SQLite into their cells (NULL reads as 0, so only
    /// a 0 needs the type check); other values go through ``PersistentValue``.
    @inline(__always)
    func pack(_ statement: SQLiteStatement, entity: EntityDescription, layout: PackedRowLayout,
                      block: Unmanaged<PackedRowBlock>, row: Int, column: (Int) -> Int32) -> Bool {
        let hasTransients = entity.hasTransientAttributes
        let fits = block._withUnsafeGuaranteedRef { block in
            block.withRow(row) { _, bits, cells -> Bool in
                // The null bits are gathered in a local and written once; the cells are walked through their
                // buffer. (This runs for every cell of every row a fetch reads.)
                var nullBits = bits.pointee
                defer { bits.pointee = nullBits }
                /// Writes a value that is not plain bits (or a transient's default) into cell `index`.
                func place(_ value: PersistentValue, at index: Int, cell: PackedRowLayout.Cell) -> Bool {
                    if case .null = value { return true }
                    guard PackedRowBlock.initialize(cell.kind, at: UnsafeMutableRawPointer(cells + Int(cell.word)), with: value) else { return false }
                    nullBits &= ~(1 &<< UInt64(index))
                    return true
                }
                return layout.cells.withUnsafeBufferPointer { layoutCells -> Bool in
                    var next = 0
                    for index in layoutCells.indices {
                        let cell = layoutCells[index]
                        if hasTransients, let attribute = entity.attributeAt[index], attribute.isTransient {
                            // No column: an object read from the store starts with the default.
                            guard place(attribute.persistentDefaultValue, at: index, cell: cell) else { return false }
                            continue
                        }
                        let value: UInt64
                        switch cell.kind {
                        case .toMany:
                            continue
                        case .integer, .toOneKey:
                            let position = column(next)
                            next += 1
                            let integer = statement.int64(at: position)
                            if integer == 0 && statement.isNull(at: position) { continue }
                            value = UInt64(bitPattern: integer)
                        case .bool:
                            let position = column(next)
                            next += 1
                            let integer = statement.int64(at: position)
                            if integer == 0 && statement.isNull(at: position) { continue }
                            value = integer != 0 ? 1 : 0
                        case .double, .date:
                            let position = column(next)
                            next += 1
                            let double = statement.double(at: position)
                            if double == 0 && statement.isNull(at: position) { continue }
                            value = double.bitPattern
                        case .string, .data, .uuid, .uri, .decimal:
                            guard case .attribute(let type) = entity.kinds[index],
                                  place(decodeValue(statement, column: column(next), type: type), at: index, cell: cell) else { return false }
                            next += 1
                            continue
                        }
                        (cells + Int(cell.word)).pointee = value
                        nullBits &= ~(1 &<< UInt64(index))
                    }
                    return true
                }
            }
        }
        if !fits { block._withUnsafeGuaranteedRef { $0.removeLastRow() } }
        return fits
    }

    private func decodeValue(_ statement: SQLiteStatement, column: Int32, type: AttributeType) -> PersistentValue {
        switch type {
        // Fast paths for the common types; everything else goes through the general conversion.
        case .integer16, .integer32, .integer64:
            // NULL reads as 0, so only a 0 needs the type check.
            let value = statement.int64(at: column)
            return value == 0 && statement.isNull(at: column) ? .null : .integer(value)
        default:
            break
        }
        if statement.isNull(at: column) { return .null }
        switch type {
        case .integer16, .integer32, .integer64: return .integer(statement.int64(at: column))
        case .double, .float: return .double(statement.double(at: column))
        case .string: return .string(statement.text(at: column))
        case .boolean: return .bool(statement.int64(at: column) != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: statement.double(at: column)))
        default: return type.persistentValue(statement.value(at: column))
        }
    }
}
