/// Where persistent history lives in the store's file, and the triggers that write part of it.
///
/// Two tables, named as Core Data names its own (an `A` for the tables it adds beside the model's `Z` ones):
/// - `ATRANSACTION`: one row per transaction that changed rows — its number (`Z_PK`, never reused: the table is
///   `AUTOINCREMENT`, so a number stays above every purged one), time, author, context name, bundle and process.
/// - `ACHANGE`: a row per row a transaction wrote — the transaction, the entity (`Z_ENT`), the row's key, the kind
///   (0 insert, 1 update, 2 delete: ``PersistentHistoryChangeType``'s raw values), for an update the changed
///   columns and to-many relationships as bit masks (`ZCOLUMNS`, `ZCOLUMNS1`…, 63 bits each; see
///   ``TrackedTable``), and for a deletion the values of the attributes
///   marked ``AttributeDescription/preservesValueInHistoryOnDeletion`` (`ZTOMBSTONE0`…, raw stored values). A row
///   written twice in one transaction (inserted, then given its place in an ordered relationship) has two rows here;
///   the reader folds them into one change per object.
///
/// Who writes `ACHANGE`: updates and deletions are recorded by SQLite triggers on the model's tables, as Core Data
/// records history, so every statement that changes or deletes a row is recorded — a save, a batch update, the
/// rows a batch delete's cascade and nullify rules reach, an upsert's update — with no code in those paths, and in
/// the same SQLite transaction as the change. Insertions are recorded by the store itself, set by set (a save's new
/// rows are a range of fresh keys per table: one `INSERT … SELECT`), because for the bulk inserts history is read
/// for, a trigger costs several times the insert. Measured with raw SQLite, inserting 50,000 rows of five columns in
/// one transaction (best of nine): 35 ms without history; with an insert trigger writing `ACHANGE`, 93 ms (129 ms
/// when a unique index keeps one row per object); writing each `ACHANGE` row from the program, 55 ms; with one
/// `INSERT … SELECT`, 43 ms (54 ms with an index on it). Even a trigger that does not fire costs: 75 ms with a
/// `WHEN` that is false. So `ACHANGE` has one plain index, on the transaction, and no unique one.
///
/// The triggers are `TEMP`: they belong to this store's connection only, so another program writing to the file
/// (the `sqlite3` shell) is neither recorded as one of this store's transactions nor broken by them.
struct StoreHistorySchema {
    /// A table of the model (a root entity's, shared by its hierarchy) and the columns whose changes its update
    /// trigger records, in bit order. The bits after the columns' stand for the to-many relationships of the
    /// table's entities, which have no column: a save sets them for the objects whose to-many lists it changed.
    struct TrackedTable {
        let table: EntityTable
        let columns: [String]
        let bitCount: Int
    }

    private let schema: StoreSchema
    let tables: [TrackedTable]
    /// Per entity index: for each bit of its table's masks, the entity's property stored in that column (nil for a
    /// column of another entity of the hierarchy).
    let maskProperties: [[Int?]]
    /// Per entity index: the bit of each of its to-many relationships, by property index.
    let toManyBits: [[Int: Int]]
    /// Per entity index: the property indexes of the attributes whose values a deletion keeps, in tombstone order.
    let tombstoneProperties: [[Int]]
    /// How many `ZCOLUMNS` and `ZTOMBSTONE` columns `ACHANGE` needs for this model.
    let maskColumnCount: Int
    let tombstoneColumnCount: Int

    static let bitsPerMask = 63

    init(schema: StoreSchema) {
        self.schema = schema
        var tables: [TrackedTable] = []
        var maskProperties: [[Int?]] = Array(repeating: [], count: schema.entities.count)
        var tombstoneProperties: [[Int]] = Array(repeating: [], count: schema.entities.count)
        var toManyBits: [[Int: Int]] = Array(repeating: [:], count: schema.entities.count)
        for root in schema.entities where root.entity.superentity == nil {
            // The table's columns in the order the schema creates them: each entity's own, parents first.
            var columns: [String] = []
            for member in root.entity.family.map({ schema[$0] }) {
                let own = member.entity.inheritedPropertyCount
                for index in member.entity.properties.indices.dropFirst(own) {
                    if let column = member.columns[index] { columns.append(column) }
                }
                for (index, column) in member.orderColumns.sorted(by: { $0.value < $1.value }) where index >= own {
                    columns.append(column)
                }
            }
            // One bit per to-many relationship of the hierarchy (a subentity shares its parent's).
            var relationshipBits: [ObjectIdentifier: Int] = [:]
            for member in root.entity.family {
                for index in member.properties.indices.dropFirst(member.inheritedPropertyCount) {
                    guard let relationship = member.relationshipAt[index], relationship.isToMany else { continue }
                    relationshipBits[ObjectIdentifier(relationship)] = columns.count + relationshipBits.count
                }
            }
            tables.append(TrackedTable(table: root, columns: columns, bitCount: columns.count + relationshipBits.count))
            for member in root.entity.family.map({ schema[$0] }) {
                var propertyOfColumn: [String: Int] = [:]
                for (index, column) in member.columns.enumerated() { if let column { propertyOfColumn[column] = index } }
                // An order column is a child's place in its parent's ordered to-many: a change of the parent's
                // relationship, not of a property of the child, so its bit names no property.
                var properties = columns.map { propertyOfColumn[$0] } + Array(repeating: nil, count: relationshipBits.count)
                var bits: [Int: Int] = [:]
                for (index, relationship) in member.entity.relationshipAt.enumerated() {
                    guard let relationship, let bit = relationshipBits[ObjectIdentifier(relationship)] else { continue }
                    properties[bit] = index
                    bits[index] = bit
                }
                maskProperties[member.entity.index] = properties
                toManyBits[member.entity.index] = bits
                tombstoneProperties[member.entity.index] = member.entity.properties.indices.filter { index in
                    guard let attribute = member.entity.attributeAt[index] else { return false }
                    return attribute.preservesValueInHistoryOnDeletion && !attribute.isTransient && member.columns[index] != nil
                }
            }
        }
        self.tables = tables
        self.maskProperties = maskProperties
        self.tombstoneProperties = tombstoneProperties
        self.toManyBits = toManyBits
        let widest = tables.map(\.bitCount).max() ?? 0
        maskColumnCount = max(1, (widest + Self.bitsPerMask - 1) / Self.bitsPerMask)
        tombstoneColumnCount = tombstoneProperties.map(\.count).max() ?? 0
    }

    static func maskColumn(_ number: Int) -> String { number == 0 ? "ZCOLUMNS" : "ZCOLUMNS\(number)" }
    static func tombstoneColumn(_ number: Int) -> String { "ZTOMBSTONE\(number)" }

    /// The columns `ACHANGE` must have for this model beyond its fixed ones.
    var variableColumns: [String] {
        (0..<maskColumnCount).map(Self.maskColumn) + (0..<tombstoneColumnCount).map(Self.tombstoneColumn)
    }

    /// The history tables, made if missing (a store gains history the first time it is opened with tracking on).
    var createStatements: [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS ATRANSACTION (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, ZTIMESTAMP REAL NOT NULL, \
            ZAUTHOR TEXT, ZBUNDLEID TEXT, ZCONTEXTNAME TEXT, ZPROCESSID TEXT)
            """,
            "CREATE INDEX IF NOT EXISTS ATRANSACTION_ZTIMESTAMP ON ATRANSACTION (ZTIMESTAMP)",
            """
            CREATE TABLE IF NOT EXISTS ACHANGE (Z_PK INTEGER PRIMARY KEY, ZTRANSACTIONID INTEGER NOT NULL, \
            ZENTITY INTEGER NOT NULL, ZENTITYPK INTEGER NOT NULL, ZCHANGETYPE INTEGER NOT NULL\
            \(variableColumns.map { ", " + $0 }.joined()))
            """,
            "CREATE INDEX IF NOT EXISTS ACHANGE_ZTRANSACTIONID ON ACHANGE (ZTRANSACTIONID)",
        ]
    }

    /// The statements that add the columns of `variableColumns` a store made with an earlier model lacks (a model
    /// may mark an attribute to be preserved without changing its version hash).
    func addColumnStatements(existing: Set<String>) -> [String] {
        variableColumns.filter { !existing.contains($0) }.map { "ALTER TABLE ACHANGE ADD COLUMN \($0)" }
    }

    /// The number of the transaction being written: its row is inserted first, so it is the newest.
    private static let currentTransaction = "(SELECT MAX(Z_PK) FROM ATRANSACTION)"

    /// The `TEMP` triggers that record every update and delete of the model's tables.
    var triggerStatements: [String] {
        tables.flatMap { tracked -> [String] in
            let table = tracked.table
            let name = table.name
            // (Unqualified: SQLite refuses a schema name inside a trigger's statements, and finds ACHANGE in main.)
            func entity(_ row: String) -> String { table.entity.isInHierarchy ? "\(row).Z_ENT" : "\(table.number)" }
            // One bit per column: set when the update changed it (`IS NOT` treats NULLs as values).
            var masks: [String] = []
            for chunk in stride(from: 0, to: max(tracked.columns.count, 1), by: Self.bitsPerMask) {
                let bits = tracked.columns.dropFirst(chunk).prefix(Self.bitsPerMask).enumerated().map { bit, column in
                    "((OLD.\(column) IS NOT NEW.\(column)) << \(bit))"
                }
                masks.append(bits.isEmpty ? "0" : bits.joined(separator: " | "))
            }
            let maskColumns = masks.indices.map(Self.maskColumn)
            let update = """
                CREATE TEMP TRIGGER IF NOT EXISTS Z_HISTORY_\(name)_UPDATE AFTER UPDATE ON main.\(name) BEGIN \
                INSERT INTO ACHANGE (ZTRANSACTIONID, ZENTITY, ZENTITYPK, ZCHANGETYPE\(maskColumns.map { ", " + $0 }.joined())) \
                VALUES (\(Self.currentTransaction), \(entity("NEW")), NEW.Z_PK, 1\(masks.map { ", " + $0 }.joined())); END
                """
            // Tombstones: for each entity of the table, its preserved attributes in order.
            let members = table.entity.family
            let count = members.map { tombstoneProperties[$0.index].count }.max() ?? 0
            var tombstones: [String] = []
            for number in 0..<count {
                var cases: [(entity: Int64, column: String)] = []
                for member in members where number < tombstoneProperties[member.index].count {
                    let memberTable = schema[member]
                    cases.append((memberTable.number, memberTable.columns[tombstoneProperties[member.index][number]]!))
                }
                if table.entity.isInHierarchy {
                    tombstones.append("CASE OLD.Z_ENT" + cases.map { " WHEN \($0.entity) THEN OLD.\($0.column)" }.joined() + " END")
                } else {
                    tombstones.append("OLD.\(cases[0].column)")
                }
            }
            let tombstoneColumns = tombstones.indices.map(Self.tombstoneColumn)
            let delete = """
                CREATE TEMP TRIGGER IF NOT EXISTS Z_HISTORY_\(name)_DELETE AFTER DELETE ON main.\(name) BEGIN \
                INSERT INTO ACHANGE (ZTRANSACTIONID, ZENTITY, ZENTITYPK, ZCHANGETYPE\(tombstoneColumns.map { ", " + $0 }.joined())) \
                VALUES (\(Self.currentTransaction), \(entity("OLD")), OLD.Z_PK, 2\(tombstones.map { ", " + $0 }.joined())); END
                """
            return [update, delete]
        }
    }
}
