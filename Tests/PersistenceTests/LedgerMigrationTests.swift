import Foundation
@_spi(TestHarness) @_spi(ModelLoading) import Persistence
import XCTest

/// A model whose relationships name inverses that do not point back (`Account.entries` names `Entry.account`,
/// which names none; `Entry.tags` names `Tag.entries`, which names none), in three versions
/// (Fixtures/Models/Ledger.xcdatamodeld: an attribute added with a default, then one renamed and one added): a store
/// of the first version migrates to the last with every row, value and link kept.
final class LedgerMigrationTests: MigrationTestCase {
    private func version(_ number: Int) throws -> ManagedObjectModel {
        let name = number == 1 ? "Ledger.xcdatamodel" : "Ledger \(number).xcdatamodel"
        return try ManagedObjectModel(contentsOf: try ModelFixtures.url("Ledger.xcdatamodeld/" + name), managedObjectClasses: [])
    }

    /// Two accounts, four entries, three tags; links set from both sides of each one-sided pair.
    static func fillVersionOne(_ context: ManagedObjectContext) {
        func insert(_ entity: String, _ values: [String: Any]) -> ManagedObject {
            let object = EntityDescription.insertNewObject(forEntityName: entity, into: context)
            for (key, value) in values { object.setValue(value, forKey: key) }
            return object
        }
        let cash = insert("Account", ["name": "Cash"])
        let bank = insert("Account", ["name": "Bank"])
        let rent = insert("Entry", ["memo": "rent", "amount": -500.0])
        let food = insert("Entry", ["memo": "food", "amount": -42.5])
        let salary = insert("Entry", ["memo": "salary", "amount": 3000.0])
        _ = insert("Entry", ["memo": "gift", "amount": 20.0])
        let home = insert("Tag", ["label": "home"])
        let monthly = insert("Tag", ["label": "monthly"])
        let work = insert("Tag", ["label": "work"])
        cash.setValue(Set([rent, food]), forKey: "entries")     // sets their account too
        salary.setValue(bank, forKey: "account")                // Bank's entries is not told, but the store reads it from here
        rent.setValue(Set([home, monthly]), forKey: "tags")     // sets the tags' entries too
        work.setValue(Set([salary]), forKey: "entries")         // salary's tags are not told, and keep their own table
    }

    private func names(_ value: Any?, _ key: String) -> [String] {
        ((value as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: key) as? String }.sorted()
    }

    private func checkVersionThree(_ container: PersistentContainer) throws {
        let accounts = try objects("Account", in: container, sortedBy: "name")
        XCTAssertEqual(accounts.map { $0.value(forKey: "name") as? String }, ["Bank", "Cash"])
        XCTAssertEqual(accounts.map { $0.value(forKey: "currency") as? String }, ["EUR", "EUR"], "added in version 2 with its default")
        XCTAssertEqual(accounts.map { names($0.value(forKey: "entries"), "text") }, [["salary"], ["food", "rent"]])

        let entries = try objects("Entry", in: container, sortedBy: "amount")
        XCTAssertEqual(entries.map { $0.value(forKey: "text") as? String }, ["rent", "food", "gift", "salary"], "memo renamed to text")
        XCTAssertEqual(entries.map { ($0.value(forKey: "amount") as? NSNumber)?.doubleValue }, [-500, -42.5, 20, 3000])
        XCTAssertEqual(entries.map { ($0.value(forKey: "cleared") as? NSNumber)?.boolValue }, [false, false, false, false])
        XCTAssertEqual(entries.map { ($0.value(forKey: "account") as? ManagedObject)?.value(forKey: "name") as? String },
                       ["Cash", "Cash", nil, "Bank"])
        XCTAssertEqual(entries.map { names($0.value(forKey: "tags"), "label") }, [["home", "monthly"], [], [], []])

        let tags = try objects("Tag", in: container, sortedBy: "label")
        XCTAssertEqual(tags.map { $0.value(forKey: "label") as? String }, ["home", "monthly", "work"])
        XCTAssertEqual(tags.map { $0.value(forKey: "color") as? String }, [nil, nil, nil])
        XCTAssertEqual(tags.map { names($0.value(forKey: "entries"), "text") }, [["rent"], ["rent"], ["salary"]])
    }

    func testEachVersionLoadsWithTheSameWarnings() throws {
        for number in 1...3 {
            let warnings = try version(number).warnings.filter { $0.contains("does not point back") }
            XCTAssertEqual(warnings.map { String($0.prefix { $0 != " " }) }, ["Account.entries", "Entry.tags"], "version \(number)")
        }
    }

    func testAVersionOneStoreMigratesToTheCurrentVersionInOneGo() throws {
        let url = try store(try version(1), Self.fillVersionOne)
        let current = try ManagedObjectModel(contentsOf: try ModelFixtures.url("Ledger.xcdatamodeld"), managedObjectClasses: [])
        XCTAssertEqual(current.versionIdentifiers, ["3"])
        try checkVersionThree(try open(url, current))
    }

    func testAVersionOneStoreMigratesOneVersionAtATime() throws {
        let url = try store(try version(1), Self.fillVersionOne)
        _ = try open(url, try version(2), versions: [try version(1)])
        try checkVersionThree(try open(url, try version(3), versions: [try version(2)]))
    }
}
