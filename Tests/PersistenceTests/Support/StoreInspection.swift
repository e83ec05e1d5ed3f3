import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Looks at what the store's tables really hold, past every context: raw rows and row versions.
extension PersistenceTestCase {
    /// The rows `sql` returns from `container`'s store (the test's own container by default).
    func storeRows(_ sql: String, in container: PersistentContainer? = nil) throws -> [[SQLiteValue]] {
        let coordinator = (container ?? self.container).persistentStoreCoordinator
        return try coordinator.withStore { try $0.connection.query(sql) }
    }

    /// The single integer `sql` returns (a count, a version), or nil for NULL or no row.
    func storeInteger(_ sql: String, in container: PersistentContainer? = nil) throws -> Int64? {
        guard case .integer(let value)? = try storeRows(sql, in: container).first?.first else { return nil }
        return value
    }

    /// The row version (`Z_OPT`) of the object with `id`, or nil when its row is gone.
    func storedVersion(of id: ManagedObjectID, in container: PersistentContainer? = nil) throws -> Int64? {
        let key = try XCTUnwrap(id.primaryKey, "\(id) is not saved")
        return try storeInteger("SELECT Z_OPT FROM Z\(id.entityName.uppercased()) WHERE Z_PK = \(key)", in: container)
    }

    /// Every table of the store with its rows (each row's values in column order), to compare before and after.
    func storeSnapshot(in container: PersistentContainer? = nil) throws -> [String: [[SQLiteValue]]] {
        var snapshot: [String: [[SQLiteValue]]] = [:]
        let tables = try storeRows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", in: container)
        for case .text(let table)? in tables.map(\.first) {
            snapshot[table] = try storeRows("SELECT * FROM \(table) ORDER BY 1, 2", in: container)
        }
        return snapshot
    }
}
