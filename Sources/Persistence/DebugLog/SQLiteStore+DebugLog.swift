import Foundation

/// The SQL debug log's annotations of what the store read, in Core Data's words: how long a fetch took and how
/// many rows it read, a count, a fault or a to-many relationship filled from the store. The statements themselves
/// are written as they run (see `SQLiteStatement+DebugLog.swift`); these lines follow them. Values only: the store
/// names objects by their IDs, never by a managed object.
extension SQLiteStore {
    /// The moment a read starts, for its annotations: 0 while the SQL log is off (the one check a read pays then).
    @inline(__always)
    static func debugClock() -> UInt64 {
        PersistenceDebugLog.isSQLOn ? DispatchTime.now().uptimeNanoseconds : 0
    }

    private static func seconds(since start: UInt64) -> String {
        String(format: "%.4f", Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9)
    }

    private static func connectionTime(_ statement: SQLiteStatement) -> String {
        "CoreData: annotation: sql connection fetch time: " + String(format: "%.4f", statement.debugSecondsSinceStart) + "s."
    }

    /// After a fetch of `entity` that read `rows` rows through `statement`, started at `started` (see
    /// ``debugClock()``): the connection's time, (level 2 and up) the statement and its row count, and the total.
    @inline(never)
    func logFetch(_ statement: SQLiteStatement, entity: EntityDescription, rows: Int, started: UInt64) {
        PersistenceDebugLog.write(Self.connectionTime(statement))
        if PersistenceDebugLog.sqlLevel >= 2 {
            let address = "0x" + String(UInt(bitPattern: ObjectIdentifier(statement)), radix: 16)
            PersistenceDebugLog.write("CoreData: annotation: fetch using SQLiteStatement <\(address)> on entity '\(entity.entityName)' with sql text '\(statement.sql)' returned \(rows) rows")
        }
        PersistenceDebugLog.write("CoreData: annotation: total fetch execution time: \(Self.seconds(since: started))s for \(rows) rows.")
    }

    /// After a count that found `count` rows.
    @inline(never)
    func logCount(_ statement: SQLiteStatement, count: Int, started: UInt64) {
        PersistenceDebugLog.write(Self.connectionTime(statement))
        PersistenceDebugLog.write("CoreData: annotation: total count request execution time: \(Self.seconds(since: started))s for count of \(count).")
    }

    /// After the row of a fault was read: the object it filled, by ID.
    @inline(never)
    func logFault(_ statement: SQLiteStatement, entity: EntityDescription, primaryKey: Int64) {
        PersistenceDebugLog.write(Self.connectionTime(statement))
        PersistenceDebugLog.write("CoreData: annotation: fault fulfilled from database for : \(objectID(of: entity, primaryKey: primaryKey))")
    }

    /// After the keys of a to-many relationship of one object were read.
    @inline(never)
    func logToManyFault(_ statement: SQLiteStatement, relationship: RelationshipDescription, entity: EntityDescription,
                        primaryKey: Int64, rows: Int) {
        PersistenceDebugLog.write(Self.connectionTime(statement))
        PersistenceDebugLog.write("CoreData: annotation: to-many relationship fault \"\(relationship.name)\" for objectID \(objectID(of: entity, primaryKey: primaryKey)) fulfilled from database.  Got \(rows) rows")
    }
}
