import Foundation
@_spi(BatchUpdateExpression) @_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Batch update, delete and insert on entity hierarchies: a request for an entity reaches its subentities' rows (all
/// in the root's table), a request for a subentity only its own, and delete rules work whatever entity of a
/// hierarchy the related rows are.
final class BatchHierarchyTests: PersistenceTestCase {
    private typealias Region = Gazetteer.Region
    private typealias Country = Gazetteer.Country
    private typealias Province = Gazetteer.Province
    private typealias Mood = Gazetteer.Mood

    override func makeModel() throws -> ManagedObjectModel { try Gazetteer.make() }

    /// The saved objects of ``fill(_:)``, by name and label.
    private struct Atlas {
        var regions: [String: Region] = [:]
        var moods: [String: Mood] = [:]
    }

    /// A plain region, two countries, two provinces and four moods (two marked for deletion), saved.
    @discardableResult
    private func fill(_ container: PersistentContainer? = nil) throws -> Atlas {
        let context = (container ?? self.container).viewContext
        var atlas = Atlas()
        let atlantis = Region(context: context)
        atlantis.name = "Atlantis"
        atlas.regions["Atlantis"] = atlantis
        for (name, population) in [("Norway", 5), ("Japan", 125)] {
            let country = Country(context: context)
            country.name = name
            country.population = population
            atlas.regions[name] = country
        }
        for (name, population) in [("Ontario", 15), ("Bavaria", 13)] {
            let province = Province(context: context)
            province.name = name
            province.population = population
            atlas.regions[name] = province
        }
        let rows: [(String, Bool, String?, String?, String?, [String])] = [
            ("calm", true, "Norway", "Ontario", "Atlantis", ["Japan"]),
            ("joy", false, "Japan", nil, "Norway", ["Norway", "Japan"]),
            ("grief", true, "Japan", "Bavaria", "Bavaria", ["Norway"]),
            ("awe", false, "Norway", "Ontario", nil, []),
        ]
        for (label, marked, country, province, home, favourites) in rows {
            let mood = Mood(context: context)
            mood.label = label
            mood.markedForDeletion = marked
            mood.country = country.map { atlas.regions[$0] as! Country }
            mood.province = province.map { atlas.regions[$0] as! Province }
            mood.home = home.flatMap { atlas.regions[$0] }
            mood.favourites = Set(favourites.map { atlas.regions[$0] as! Country })
            atlas.moods[label] = mood
        }
        try context.save()
        return atlas
    }

    private func delete(_ entityName: String, _ format: String? = nil, _ arguments: Any..., includesSubentities: Bool = true,
                        in container: PersistentContainer? = nil) throws -> BatchDeleteResult {
        let fetch = FetchRequest<FetchRequestResult>(entityName: entityName)
        if let format { fetch.predicate = FetchPredicate(format: format, argumentArray: arguments) }
        fetch.includesSubentities = includesSubentities
        let request = BatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeObjectIDs
        return try (container ?? self.container).viewContext.execute(request)
    }

    /// The stored names of the regions, or the labels of the moods, sorted.
    private func stored(_ sql: String, in container: PersistentContainer? = nil) throws -> [String] {
        try storeRows(sql, in: container).compactMap { if case .text(let text)? = $0.first { text } else { nil } }.sorted()
    }

    private func regionVersion(_ name: String, in container: PersistentContainer? = nil) throws -> Int64? {
        try storeInteger("SELECT Z_OPT FROM ZREGION WHERE ZNAME = '\(name)'", in: container)
    }

    // MARK: - Delete

    func testDeletingMarkedMoodsWhoseCountryIsASubentity() throws {
        // The launch clean-up of an app: moods reach Country, a subentity of Region, through their relationships.
        let atlas = try fill()
        let result = try delete("Mood", "markedForDeletion == YES")
        XCTAssertEqual(result.count, 2)
        XCTAssertEqual(result.objectIDs, [atlas.moods["calm"]!.objectID, atlas.moods["grief"]!.objectID])
        XCTAssertEqual(try stored("SELECT ZLABEL FROM ZMOOD"), ["awe", "joy"])
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION"), ["Atlantis", "Bavaria", "Japan", "Norway", "Ontario"])
        // Their many-to-many rows go; the related countries, provinces and home region get a new version.
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM Z_COUNTRY_FANS"), 2)
        for name in ["Atlantis", "Bavaria", "Japan", "Norway", "Ontario"] {
            XCTAssertGreaterThan(try regionVersion(name) ?? 0, 1, name)
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let countries = try reader.fetch(Country.fetchRequest())
            XCTAssertEqual(Set(countries.map { "\($0.name): \($0.moods.map(\.label).sorted()) \($0.fans.map(\.label).sorted())" }),
                           ["Norway: [\"awe\"] [\"joy\"]", "Japan: [\"joy\"] [\"joy\"]"])
        }
    }

    func testADeletePredicateThroughASubentity() throws {
        let atlas = try fill()
        let result = try delete("Mood", "markedForDeletion == YES AND country.name == %@", "Japan")
        XCTAssertEqual(result.objectIDs, [atlas.moods["grief"]!.objectID])
        XCTAssertEqual(try stored("SELECT ZLABEL FROM ZMOOD"), ["awe", "calm", "joy"])
    }

    func testADeleteOfTheRootReachesEverySubentityAndItsOwnRules() throws {
        let store = try makeContainer(model: try Gazetteer.make(countryMoods: .cascade))
        let atlas = try fill(store)
        let result = try delete("Region", "name BEGINSWITH 'B' OR name == 'Norway'", in: store)
        // The request's rows first (a country, a province), then the moods Norway's own cascade rule reached.
        XCTAssertEqual(result.objectIDs?.map(\.entityName), ["Country", "Province", "Mood", "Mood"])
        XCTAssertEqual(Set(result.objectIDs ?? []), Set([atlas.regions["Norway"]!.objectID, atlas.regions["Bavaria"]!.objectID,
                                                       atlas.moods["calm"]!.objectID, atlas.moods["awe"]!.objectID]))
        XCTAssertEqual(result.count, 4)
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION", in: store), ["Atlantis", "Japan", "Ontario"])
        XCTAssertEqual(try stored("SELECT ZLABEL FROM ZMOOD", in: store), ["grief", "joy"])
        // Province.residents and Region.visitors nullify: grief's province and home, joy's home are cleared.
        let rows = try storeRows("SELECT ZLABEL, ZPROVINCE, ZHOME, ZCOUNTRY FROM ZMOOD ORDER BY ZLABEL", in: store)
        let japan = SQLiteValue.integer(try XCTUnwrap(atlas.regions["Japan"]!.objectID.primaryKey))
        XCTAssertEqual(rows, [[.text("grief"), .null, .null, japan], [.text("joy"), .null, .null, japan]])
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM Z_COUNTRY_FANS", in: store), 1, "only joy ⇄ Japan is left")
    }

    func testIncludesSubentitiesFalseDeletesTheEntitysOwnRowsOnly() throws {
        let atlas = try fill()
        XCTAssertEqual(try delete("Region", "name == 'Norway'", includesSubentities: false).count, 0)
        let result = try delete("Region", includesSubentities: false)
        XCTAssertEqual(result.objectIDs, [atlas.regions["Atlantis"]!.objectID])
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION"), ["Bavaria", "Japan", "Norway", "Ontario"])
        XCTAssertNil(try storeInteger("SELECT ZHOME FROM ZMOOD WHERE ZLABEL = 'calm'"), "calm's home is nullified")
    }

    func testADeleteOfASubentityTouchesOnlyItsRows() throws {
        let atlas = try fill()
        // Both siblings have a population above 10 (Japan 125, Ontario 15), each in its own column.
        let countries = try delete("Country", "population > 10")
        XCTAssertEqual(countries.objectIDs, [atlas.regions["Japan"]!.objectID])
        let provinces = try delete("Province", "population > 14")
        XCTAssertEqual(provinces.objectIDs, [atlas.regions["Ontario"]!.objectID])
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION"), ["Atlantis", "Bavaria", "Norway"])
        // Country.moods nullifies: the moods of Japan keep living, without a country.
        XCTAssertEqual(try stored("SELECT ZLABEL FROM ZMOOD WHERE ZCOUNTRY IS NULL"), ["grief", "joy"])
        XCTAssertEqual(try stored("SELECT ZLABEL FROM ZMOOD WHERE ZPROVINCE IS NULL"), ["awe", "calm", "joy"])

        let byID = BatchDeleteRequest(objectIDs: [atlas.regions["Norway"]!.objectID])
        XCTAssertEqual(try context.execute(byID).count, 1)
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION"), ["Atlantis", "Bavaria"])
    }

    func testACascadeIntoAHierarchyAppliesTheRowsOwnEntitysRules() throws {
        let store = try makeContainer(model: try Gazetteer.make(moodHome: .cascade))
        let atlas = try fill(store)
        // joy's home is Norway, a country: Norway goes, and Country's own rules apply to it.
        let result = try delete("Mood", "label == 'joy'", in: store)
        XCTAssertEqual(result.objectIDs, [atlas.moods["joy"]!.objectID, atlas.regions["Norway"]!.objectID])
        XCTAssertEqual(result.objectIDs?.map(\.entityName), ["Mood", "Country"])
        XCTAssertEqual(try stored("SELECT ZLABEL FROM ZMOOD WHERE ZCOUNTRY IS NULL", in: store), ["awe", "calm"], "Country.moods nullifies")
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM Z_COUNTRY_FANS", in: store), 1, "only calm ⇄ Japan is left")
        // grief's home is Bavaria, a province.
        let province = try delete("Mood", "label == 'grief'", in: store)
        XCTAssertEqual(province.objectIDs?.map(\.entityName), ["Mood", "Province"])
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION", in: store), ["Atlantis", "Japan", "Ontario"])
    }

    func testADenyRuleOfASubentityRefusesAndChangesNothing() throws {
        let store = try makeContainer(model: try Gazetteer.make(countryMoods: .deny, moodHome: .cascade))
        let atlas = try fill(store)
        let before = try storeSnapshot(in: store)
        let error = assertPersistenceError(.validationRelationshipDeniedDelete) { _ = try delete("Region", in: store) }
        XCTAssertEqual(error?.objectID?.entityName, "Country")
        XCTAssertEqual(error?.key, "moods")
        XCTAssertTrue(error?.message.contains("Country") == true, error?.message ?? "")
        // Reached by cascade: joy's home, Norway, still has moods that stay.
        let reached = assertPersistenceError(.validationRelationshipDeniedDelete) { _ = try delete("Mood", "label == 'joy'", in: store) }
        XCTAssertEqual(reached?.objectID, atlas.regions["Norway"]!.objectID)
        XCTAssertEqual(try storeSnapshot(in: store), before)
        // Once its moods are gone (calm's home, Atlantis, with them), the country can go.
        XCTAssertEqual(try delete("Mood", "country.name == 'Norway'", in: store).objectIDs?.map(\.entityName), ["Mood", "Mood", "Region"])
        XCTAssertEqual(try delete("Country", "name == 'Norway'", in: store).count, 1)
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION", in: store), ["Bavaria", "Japan", "Ontario"])
    }

    // MARK: - Update

    func testABatchUpdateOfTheRootReachesItsSubentities() throws {
        let atlas = try fill()
        let request = BatchUpdateRequest(entityName: "Region")
        request.predicate = FetchPredicate(format: "name == 'Norway' OR name == 'Ontario' OR name == 'Atlantis'")
        request.propertiesToUpdate = ["name": "Renamed"]
        request.resultType = .updatedObjectIDsResultType
        let ids = try XCTUnwrap(try context.execute(request).objectIDs)
        XCTAssertEqual(Set(ids), Set(["Atlantis", "Norway", "Ontario"].map { atlas.regions[$0]!.objectID }))
        XCTAssertEqual(Set(ids.map(\.entityName)), ["Region", "Country", "Province"])
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION"), ["Bavaria", "Japan", "Renamed", "Renamed", "Renamed"])
        XCTAssertEqual(try regionVersion("Japan"), 1)

        let own = BatchUpdateRequest(entityName: "Region")
        own.includesSubentities = false
        own.propertiesToUpdate = ["name": "Plain"]
        own.resultType = .updatedObjectsCountResultType
        XCTAssertEqual(try context.execute(own).count, 1)
        XCTAssertEqual(try stored("SELECT ZNAME FROM ZREGION WHERE ZNAME = 'Plain'"), ["Plain"])
    }

    func testABatchUpdateOfASubentityTouchesOnlyItsRowsAndColumns() throws {
        try fill()
        let countries = BatchUpdateRequest(entityName: "Country")
        countries.propertiesToUpdate = ["population": BatchUpdateExpression.key("population") * 2]
        countries.resultType = .updatedObjectIDsResultType
        XCTAssertEqual(try context.execute(countries).objectIDs?.map(\.entityName), ["Country", "Country"])
        let provinces = BatchUpdateRequest(entityName: "Province")
        provinces.predicate = FetchPredicate(format: "population > 14")
        provinces.propertiesToUpdate = ["population": BatchUpdateExpression.key("population") + 1]
        XCTAssertEqual(try context.execute(provinces).result as? Bool, true)
        let rows = try storeRows("SELECT ZNAME, ZPOPULATION, ZPOPULATION1 FROM ZREGION ORDER BY ZNAME")
        XCTAssertEqual(rows, [
            [.text("Atlantis"), .null, .null], [.text("Bavaria"), .null, .integer(13)], [.text("Japan"), .integer(250), .null],
            [.text("Norway"), .integer(10), .null], [.text("Ontario"), .null, .integer(16)],
        ])
        context.reset()
        let read = try context.fetch(Province.fetchRequest()).map { "\($0.name) \($0.population)" }.sorted()
        XCTAssertEqual(read, ["Bavaria 13", "Ontario 16"])
    }

    // MARK: - Insert

    func testABatchInsertIntoASubentityWritesItsEntityAndDrawsTheRootsKeys() throws {
        try fill()
        let maximum = try XCTUnwrap(try storeInteger("SELECT MAX(Z_PK) FROM ZREGION"))
        let request = BatchInsertRequest(entityName: "Country", objects: [["name": "Chile", "population": 19], ["name": "Peru", "population": 33]])
        request.resultType = .objectIDs
        let ids = try XCTUnwrap(try context.execute(request).objectIDs)
        XCTAssertEqual(ids.map(\.entityName), ["Country", "Country"])
        XCTAssertEqual(ids.map(\.primaryKey), [maximum + 1, maximum + 2], "keys come from Region's range")
        let province = BatchInsertRequest(entityName: "Province", objects: [["name": "Quebec", "population": 8]])
        XCTAssertEqual(try context.execute(province).result as? Bool, true)
        XCTAssertEqual(try storeRows("SELECT ZNAME, ZPOPULATION, ZPOPULATION1, Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Country') FROM ZREGION WHERE Z_PK > \(maximum) ORDER BY Z_PK"), [
            [.text("Chile"), .integer(19), .null, .integer(1)], [.text("Peru"), .integer(33), .null, .integer(1)],
            [.text("Quebec"), .null, .integer(8), .integer(0)],
        ])
        // A region saved by a context afterwards takes the next key of the same range.
        let later = Region(context: context)
        later.name = "Lemuria"
        try context.save()
        XCTAssertEqual(later.objectID.primaryKey, maximum + 4)
        context.reset()
        let regions = try context.fetch(Region.fetchRequest())
        XCTAssertEqual(regions.filter { $0 is Country }.map(\.name).sorted(), ["Chile", "Japan", "Norway", "Peru"])
        XCTAssertEqual(regions.filter { $0 is Province }.map(\.name).sorted(), ["Bavaria", "Ontario", "Quebec"])
    }

    func testBatchInsertsIntoAHierarchyWithAConstraintOnTheRoot() throws {
        // The library: Media (abstract, title unique) ← Book ← Audiobook, Media ← Album.
        let store = try makeContainer(model: try LibraryModel.make())
        let context = store.viewContext
        let dune = Book(context: context)
        dune.title = "Dune"
        let aloud = Audiobook(context: context)
        aloud.title = "Dune, read aloud"
        let blue = Album(context: context)
        blue.title = "Blue"
        try context.save()

        let abstract = assertPersistenceError(.coreData) {
            try context.execute(BatchInsertRequest(entityName: "Media", objects: [["title": "Heat"]]))
        }
        XCTAssertTrue(abstract?.message.contains("Media is abstract") == true, abstract?.message ?? "")

        // A match with an object of the entity, or of one of its subentities, updates it (under an object-trump policy).
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        let books = BatchInsertRequest(entityName: "Book", objects: [["title": "Dune", "pages": 500], ["title": "Dune, read aloud", "pages": 9]])
        books.resultType = .objectIDs
        XCTAssertEqual(try context.execute(books).objectIDs, [dune.objectID, aloud.objectID])
        XCTAssertEqual(try storeInteger("SELECT ZPAGES FROM ZMEDIA WHERE ZTITLE = 'Dune, read aloud'", in: store), 9)

        // A match with an object of another branch, or of the parent, cannot be updated as this entity.
        let before = try storeSnapshot(in: store)
        for (entity, title) in [("Album", "Dune"), ("Audiobook", "Dune"), ("Book", "Blue")] {
            let error = assertPersistenceError(.managedObjectConstraintMerge) {
                try context.execute(BatchInsertRequest(entityName: entity, objects: [["title": "New"], ["title": title]]))
            }
            XCTAssertTrue(error?.message.contains("row 1") == true, error?.message ?? "")
        }
        XCTAssertEqual(try storeSnapshot(in: store), before)
    }
}
