import Foundation

/// Where each property of an entity lies in a ``PackedRow``: one cell per attribute or to-one key, sized to the
/// value's own Swift type, and a null bit per property.
///
/// A fetched object that has not been changed holds its values packed: ten integers take 88 bytes (a word of null
/// bits and ten cells) instead of an array of ten 24-byte ``PropertySlot``s. Entities whose rows cannot be packed (more than 63 properties) have no layout and keep
/// their values in slots.
@usableFromInline
final class PackedRowLayout: Sendable {
    @usableFromInline
    enum CellKind: UInt8, Sendable {
        case integer, double, bool, date, string, data, uuid, uri, decimal, toOneKey
        /// A to-many relationship: nothing stored (it is a fault until read).
        case toMany
    }

    struct Cell: Sendable {
        let kind: CellKind
        /// The cell's first 8-byte word in the row.
        let word: UInt16
    }

    /// One cell per property of the entity, in property order.
    let cells: [Cell]
    /// The size of a row, in 8-byte words.
    let wordCount: Int
    /// The cells that hold references (strings, data, URLs, decimals' storage), which a row must release when it
    /// goes away; empty when every value is plain bits.
    let referenceCells: [Int]

    /// The layout of `kinds`, or nil when such rows cannot be packed (more than 63 properties: a row keeps one bit
    /// per property and one for its to-many relationships, in 64 bits).
    init?(kinds: [PropertyKind]) {
        guard kinds.count <= 63 else { return nil }
        var cells: [Cell] = []
        var referenceCells: [Int] = []
        var word = 0
        for (index, kind) in kinds.enumerated() {
            let cellKind: CellKind
            switch kind {
            case .toOne: cellKind = .toOneKey
            case .toMany: cellKind = .toMany
            case .attribute(let type):
                switch type {
                case .integer16, .integer32, .integer64: cellKind = .integer
                case .double, .float: cellKind = .double
                case .boolean: cellKind = .bool
                case .date: cellKind = .date
                case .string: cellKind = .string
                case .binaryData, .transformable, .undefined: cellKind = .data
                case .uuid: cellKind = .uuid
                case .uri: cellKind = .uri
                case .decimal: cellKind = .decimal
                }
            }
            cells.append(Cell(kind: cellKind, word: UInt16(word)))
            word += Self.words(of: cellKind)
            if Self.holdsReferences(cellKind) { referenceCells.append(index) }
        }
        self.cells = cells
        self.wordCount = word
        self.referenceCells = referenceCells
    }

    static func words(of kind: CellKind) -> Int {
        switch kind {
        case .toMany: return 0
        case .integer, .double, .bool, .date, .toOneKey: return 1
        case .string: return (MemoryLayout<String>.size + 7) / 8
        case .data: return (MemoryLayout<Data>.size + 7) / 8
        case .uuid: return (MemoryLayout<UUID>.size + 7) / 8
        case .uri: return (MemoryLayout<URL>.size + 7) / 8
        case .decimal: return (MemoryLayout<Decimal>.size + 7) / 8
        }
    }

    static func holdsReferences(_ kind: CellKind) -> Bool {
        switch kind {
        case .string, .data, .uri: return true
        case .uuid: return !_isPOD(UUID.self)
        case .decimal: return !_isPOD(Decimal.self)
        case .integer, .double, .bool, .date, .toOneKey, .toMany: return false
        }
    }
}
