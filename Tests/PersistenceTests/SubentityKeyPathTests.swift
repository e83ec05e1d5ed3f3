import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Key paths through relationships whose destination is a subentity, or the root of a hierarchy: a subentity's
/// rows live in its root entity's table, so every join, subquery and sort the store writes for them must name that
/// table, and the subentity's own columns there (numbered when a sibling has the same name).
final class SubentityKeyPathTests: PersistenceTestCase {
    private typealias Region = Gazetteer.Region
    private typealias Country = Gazetteer.Country
    private typealias Province = Gazetteer.Province
    private typealias Mood = Gazetteer.Mood

    override func makeModel() throws -> ManagedObjectModel { try Gazetteer.make() }

    /// A plain region, three countries, two provinces and five moods between them.
    private func build(_ context: ManagedObjectContext) {
        let atlantis = Region(context: context)
        atlantis.name = "Atlantis"
        func country(_ name: String, _ population: Int) -> Country {
            let country = Country(context: context)
            country.name = name
            country.population = population
            return country
        }
        func province(_ name: String, _ population: Int) -> Province {
            let province = Province(context: context)
            province.name = name
            province.population = population
            return province
        }
        let norway = country("Norway", 5), japan = country("Japan", 125), chile = country("Chile", 19)
        let ontario = province("Ontario", 15), bavaria = province("Bavaria", 13)
        let rows: [(String, Int, Country?, Province?, Region?, [Country])] = [
            ("calm", 3, norway, ontario, atlantis, [japan, chile]),
            ("joy", 5, japan, nil, norway, [norway]),
            ("grief", 1, nil, bavaria, bavaria, []),
            ("awe", 4, chile, ontario, nil, [norway, japan, chile]),
            ("dread", 2, norway, nil, japan, [chile]),
        ]
        for (label, score, country, province, home, favourites) in rows {
            let mood = Mood(context: context)
            mood.label = label
            mood.score = score
            mood.country = country
            mood.province = province
            mood.home = home
            mood.favourites = Set(favourites)
        }
    }

    private func saved() throws {
        build(context)
        try context.save()
        context.reset()
    }

    private func labels(_ format: String, _ arguments: Any...) throws -> [String] {
        let request: FetchRequest<Mood> = Mood.fetchRequest()
        request.predicate = FetchPredicate(format: format, argumentArray: arguments)
        return try context.fetch(request).map(\.label).sorted()
    }

    // MARK: - Predicates

    func testAToOneIntoASubentityJoinsItsRootsTable() throws {
        try saved()
        XCTAssertEqual(try labels("country.name == %@", "Norway"), ["calm", "dread"])
        XCTAssertEqual(try labels("country.population > 10"), ["awe", "joy"])
        // Province's population is the numbered column of the shared table.
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZREGION WHERE ZPOPULATION1 > 0"), 2)
        XCTAssertEqual(try labels("province.population > 14"), ["awe", "calm"])
        XCTAssertEqual(try labels("country.name == %@ AND province.population > 14", "Norway"), ["calm"])
        let count: FetchRequest<Mood> = Mood.fetchRequest()
        count.predicate = FetchPredicate(format: "country.name == %@", "Norway")
        XCTAssertEqual(try context.count(for: count), 2)
    }

    func testPredicatesThroughSubentitiesAgreeWithTheEvaluator() throws {
        let moods = [
            "country.name == 'Norway'", "country.name != 'Norway'", "country.name BEGINSWITH[c] 'n'",
            "country.population > 10", "country.population <= 19", "province.population > 14",
            "province.name == 'Ontario'", "home.name == 'Norway'", "home.name IN {'Atlantis', 'Bavaria'}",
            "country == nil", "country.moods.@count > 1", "ANY country.moods.score > 4",
            "ANY country.fans.label == 'calm'", "ANY favourites.name == 'Norway'", "ALL favourites.population > 10",
            "NONE favourites.population > 100", "favourites.@count >= 2", "favourites.@sum.population > 100",
            "favourites.@max.population < 20", "favourites.@avg.population > 50",
            "SUBQUERY(favourites, $c, $c.population > 10 AND $c.name BEGINSWITH 'J').@count > 0",
            "SUBQUERY(favourites, $c, ANY $c.moods.score > 3).@count > 0",
            "ANY favourites.visitors.label == 'joy'", "ANY home.visitors.score > 2",
            "country.name == 'Norway' AND province.population > 14", "NOT (country.population > 10)",
        ]
        var lines = try predicateDisagreements(moods.map { FetchPredicate(format: $0) }, of: Mood.self,
                                               label: \.label, build: build)
        let countries = [
            "ANY moods.score > 3", "moods.@count == 0", "ANY fans.label == 'calm'", "ANY visitors.score > 2",
            "name == 'Japan'", "population > 10", "fans.@avg.score > 3", "SUBQUERY(fans, $m, $m.score < 3).@count > 0",
        ]
        lines += try predicateDisagreements(countries.map { FetchPredicate(format: $0) }, of: Country.self,
                                            label: \.name, build: build)
        let regions = ["name BEGINSWITH 'B'", "ANY visitors.score >= 3", "visitors.@count > 0", "ANY visitors.country.name == 'Norway'"]
        lines += try predicateDisagreements(regions.map { FetchPredicate(format: $0) }, of: Region.self,
                                            label: \.name, build: build)
        XCTAssertTrue(lines.isEmpty, lines.joined(separator: "\n"))
    }

    // MARK: - Sorting, counting, dictionaries, batch updates

    func testSortingByAKeyPathThroughASubentity() throws {
        func sorted(_ descriptors: [FetchSortDescriptor]) throws -> [String] {
            let request: FetchRequest<Mood> = Mood.fetchRequest()
            request.sortDescriptors = descriptors
            return try context.fetch(request).map(\.label)
        }
        let byCountry = [
            FetchSortDescriptor(key: "country.name", ascending: true),
            FetchSortDescriptor(key: "label", ascending: true),
        ]
        let byProvince = [
            FetchSortDescriptor(key: "province.population", ascending: false),
            FetchSortDescriptor(key: "label", ascending: true),
        ]
        let byHome = [
            FetchSortDescriptor(key: "home.name", ascending: false),
            FetchSortDescriptor(key: "label", ascending: true),
        ]
        // Unsaved objects are sorted in memory; the same order must come from the store.
        build(context)
        let inMemory = [try sorted(byCountry), try sorted(byProvince), try sorted(byHome)]
        try context.save()
        context.reset()
        XCTAssertEqual(try sorted(byCountry), ["grief", "awe", "joy", "calm", "dread"])
        XCTAssertEqual(try sorted(byProvince), ["awe", "calm", "grief", "dread", "joy"])
        XCTAssertEqual(try sorted(byHome), ["joy", "dread", "grief", "calm", "awe"])
        XCTAssertEqual([try sorted(byCountry), try sorted(byProvince), try sorted(byHome)], inMemory)
    }

    func testDictionaryResultsFilterThroughASubentity() throws {
        try saved()
        let request = FetchRequest<NSDictionary>(entityName: "Mood")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["label", "country"]
        request.predicate = FetchPredicate(format: "country.population > 10")
        request.sortDescriptors = [FetchSortDescriptor(key: "country.name", ascending: true)]
        let rows = try context.fetch(request)
        XCTAssertEqual(rows.map { $0["label"] as? String }, ["awe", "joy"])
        XCTAssertEqual(rows.compactMap { ($0["country"] as? ManagedObjectID)?.entityName }, ["Country", "Country"])
    }

    func testABatchUpdateFiltersThroughASubentity() throws {
        try saved()
        let update = BatchUpdateRequest(entityName: "Mood")
        update.predicate = FetchPredicate(format: "country.name == %@ OR province.population < 14", "Norway")
        update.propertiesToUpdate = ["score": 10]
        update.resultType = .updatedObjectsCountResultType
        XCTAssertEqual(try context.execute(update).count, 3)
        XCTAssertEqual(try labels("score == 10"), ["calm", "dread", "grief"])
    }

    // MARK: - A key only a subentity has

    func testAKeyOnlyASubentityHasIsRefusedThroughARelationshipToItsParent() throws {
        // `home` leads to Region; `population` belongs to Country and Province only. Core Data resolves the key
        // path against Region and refuses it, even where every related row is a country.
        try saved()
        let request: FetchRequest<Mood> = Mood.fetchRequest()
        request.predicate = FetchPredicate(format: "home.population > 10")
        let error = assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(request) }
        XCTAssertTrue(error?.message.contains("Region has no property named 'population'") == true, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("Only its subentities Country, Province have it") == true, error?.message ?? "")
        request.predicate = nil
        request.sortDescriptors = [FetchSortDescriptor(key: "home.population", ascending: true)]
        XCTAssertNotNil(assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(request) })
        // Through the subentity itself, the same key is fine.
        XCTAssertEqual(try labels("country.population > 10"), ["awe", "joy"])
    }
}
