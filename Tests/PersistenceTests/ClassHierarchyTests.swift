import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

/// The class of the `Region` entity.
final class Region: ManagedObject {
    @Managed var name: String
    @Managed var population: Int
    @Managed var residents: Set<Traveller>
}

/// The class of the `Country` entity, whose parent entity is `Region`: it derives from ManagedObject, not from
/// Region, and declares only some of the entity's properties (`name` and `population` are reached by key).
final class Country: ManagedObject {
    @Managed var code: String
    @Managed var residents: Set<Traveller>
}

/// Lives in a region, a country or a province: a relationship to `Region` typed as what all of them are.
final class Traveller: ManagedObject {
    @Managed var name: String
    @Managed var home: ManagedObject?
}

/// Declares its relationship to `Region` as `Region?`, which cannot give back a `Country`.
final class Postcard: ManagedObject {
    @Managed var place: Region?
}

/// Entity and class hierarchies that do not mirror each other, as Core Data allows: entity `Country` inherits from
/// `Region` while class `Country` derives straight from `ManagedObject`; entity `Province` inherits from `Region` and
/// reuses class `Region`.
final class ClassHierarchyTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try Self.atlas() }

    /// Region, its subentities Country (class Country) and Province (class Region), Traveller, and `extra`.
    static func atlas(extra: [EntityDescription] = []) throws -> ManagedObjectModel {
        let region = EntityDescription(name: "Region", managedObjectClass: Region.self, properties: [
            .attribute("name", .string, optional: false),
            .attribute("population", .integer64, defaultValue: 0),
            .toMany("residents", "Traveller", inverse: "home"),
        ])
        return try ManagedObjectModel(entities: [
            region,
            EntityDescription(name: "Country", managedObjectClass: Country.self, parent: region, properties: [
                .attribute("code", .string, optional: false),
            ]),
            EntityDescription(name: "Province", managedObjectClass: Region.self, parent: region, properties: [
                .attribute("governor", .string),
            ]),
            EntityDescription(name: "Traveller", managedObjectClass: Traveller.self, properties: [
                .attribute("name", .string, optional: false),
                .toOne("home", "Region", inverse: "residents"),
            ]),
        ] + extra)
    }

    /// The same model drawn in Xcode, written to a temporary folder.
    private func atlasFile() throws -> URL {
        let folder = try temporaryFolder().appendingPathComponent("Atlas.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Country" representedClassName="Country" parentEntity="Region" syncable="YES">
                    <attribute name="code" attributeType="String"/>
                </entity>
                <entity name="Province" representedClassName="Region" parentEntity="Region" syncable="YES">
                    <attribute name="governor" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Region" representedClassName="Region" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <attribute name="population" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    <relationship name="residents" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Traveller" inverseName="home" inverseEntity="Traveller"/>
                </entity>
                <entity name="Traveller" representedClassName="Traveller" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="home" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Region" inverseName="residents" inverseEntity="Region"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
        return folder
    }

    /// A region, a country and a province, saved; the context is then reset so everything is read anew.
    private func fillAtlas(in context: ManagedObjectContext? = nil) throws {
        let context = context ?? self.context
        let europe = Region(context: context)
        europe.name = "Europe"
        europe.population = 745_000_000
        let france = Country(context: context)
        france.code = "FR"
        france.setValue("France", forKey: "name")
        france.setValue(68_000_000, forKey: "population")
        let bavaria = EntityDescription.insertNewObject(forEntityName: "Province", into: context)
        bavaria.setValue("Bavaria", forKey: "name")
        bavaria.setValue("Söder", forKey: "governor")
        try context.save()
        context.reset()
    }

    private func byName(_ entityName: String, in context: ManagedObjectContext? = nil) throws -> [ManagedObject] {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        return try (context ?? self.context).fetch(request)
    }

    // MARK: - Loading

    func testASubentityWhoseClassDoesNotDeriveFromItsParentsClassLoads() throws {
        let model = try Self.atlas()
        let region = try XCTUnwrap(model.entitiesByName["Region"])
        let country = try XCTUnwrap(model.entitiesByName["Country"])
        let province = try XCTUnwrap(model.entitiesByName["Province"])
        XCTAssertTrue(country.superentity === region)
        XCTAssertTrue(country.managedObjectClass == Country.self)
        XCTAssertTrue(model.entity(for: Country.self) === country)
        XCTAssertTrue(model.entity(for: Region.self) === region, "a class shared within a hierarchy stands for the entity highest up")
        XCTAssertTrue(province.managedObjectClass == Region.self)
        XCTAssertEqual(country.properties.map(\.name), ["name", "population", "residents", "code"])

        let france = Country(context: context)
        XCTAssertTrue(france.entity === context.model?.entitiesByName["Country"], "Country(context:) inserts an object of entity Country")
        XCTAssertTrue(EntityDescription.insertNewObject(forEntityName: "Province", into: context) is Region)
    }

    func testTheSameHierarchyLoadsFromAnXcodeModelFile() throws {
        let model = try ManagedObjectModel(contentsOf: try atlasFile(), managedObjectClasses: [Region.self, Country.self, Traveller.self])
        XCTAssertEqual(model.warnings, [])
        XCTAssertEqual(model.versionHash, try Self.atlas().versionHash, "the same model as the one in code")
        XCTAssertTrue(model.entitiesByName["Country"]?.managedObjectClass == Country.self)
        XCTAssertTrue(model.entitiesByName["Province"]?.managedObjectClass == Region.self)
        XCTAssertTrue(model.entity(for: Country.self) === model.entitiesByName["Country"])

        let atlas = try makeContainer(model: model)
        try fillAtlas(in: atlas.viewContext)
        let regions = try byName("Region", in: atlas.viewContext)
        XCTAssertEqual(regions.map { $0.value(forKey: "name") as? String }, ["Bavaria", "Europe", "France"])
        XCTAssertEqual((regions.last as? Country)?.code, "FR")
    }

    // MARK: - Objects of a class that declares only some of its entity's properties

    func testACountryReadsItsOwnPropertiesByOrdinalAndItsInheritedOnesByKey() throws {
        let country = try XCTUnwrap(context.model?.entitiesByName["Country"])
        XCTAssertEqual(country.propertyIndex(ordinal: 0), country.propertyIndexByName["code"], "@Managed code is ordinal 0 of class Country")
        XCTAssertEqual(country.propertyIndex(ordinal: 1), country.propertyIndexByName["residents"])
        try fillAtlas()

        let countries = try context.fetch(FetchRequest<Country>(entityName: "Country"))
        let france = try XCTUnwrap(countries.first)
        XCTAssertEqual(countries.count, 1)
        XCTAssertNotNil(france.packedRow, "a fetch of Country alone packs its rows with Country's layout")
        XCTAssertEqual(france.code, "FR")
        XCTAssertEqual(france.value(forKey: "name") as? String, "France")
        XCTAssertEqual(france.value(forKey: "population") as? Int, 68_000_000)

        france.setValue("République française", forKey: "name")
        france.code = "FRA"
        try context.save()
        XCTAssertEqual(try storeRows("SELECT ZNAME, ZCODE FROM ZREGION WHERE ZCODE IS NOT NULL"),
                       [[.text("République française"), .text("FRA")]])
    }

    // MARK: - Fetching the parent

    func testAnUntypedFetchOfTheParentReturnsEachObjectAsItsOwnClass() throws {
        try fillAtlas()
        let regions = try byName("Region")
        XCTAssertEqual(regions.map(\.entity.name), ["Province", "Region", "Country"])
        XCTAssertTrue(regions[0] is Region)
        XCTAssertTrue(regions[1] is Region)
        XCTAssertTrue(regions[2] is Country)
        XCTAssertFalse(regions[2] is Region)
        XCTAssertEqual(regions.map { $0.value(forKey: "name") as? String }, ["Bavaria", "Europe", "France"])
    }

    func testATypedFetchOfTheParentThatFindsACountryThrowsAndNamesIt() throws {
        try fillAtlas()
        let request = FetchRequest<Region>(entityName: "Region")
        let error = assertPersistenceError(.coreData) { _ = try self.context.fetch(request) }
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("FetchRequest<Region> for Region found an object of its subentity Country, whose class Country is not Region"), message)
        XCTAssertTrue(message.contains("FetchRequest<ManagedObject>"), message)
        XCTAssertEqual(error?.object?.entity.name, "Country")

        // What Region objects can hold comes back typed: without subentities, or without countries.
        request.includesSubentities = false
        XCTAssertEqual(try context.fetch(request).map(\.name), ["Europe"])
        request.includesSubentities = true
        request.predicate = FetchPredicate(format: "name != %@", "France")
        XCTAssertEqual(try context.fetch(request).map(\.name).sorted(), ["Bavaria", "Europe"])
        XCTAssertEqual(try context.fetch(FetchRequest<Region>(entityName: "Province")).map(\.name), ["Bavaria"])
    }

    func testATypedFetchOfTheParentThrowsForAnUnsavedCountryToo() throws {
        let europe = Region(context: context)
        europe.name = "Europe"
        try context.save()
        XCTAssertEqual(try context.fetch(FetchRequest<Region>(entityName: "Region")).map(\.name), ["Europe"])
        let spain = Country(context: context)
        spain.code = "ES"
        spain.setValue("Spain", forKey: "name")
        let error = assertPersistenceError(.coreData) { _ = try self.context.fetch(FetchRequest<Region>(entityName: "Region")) }
        XCTAssertTrue(error?.object === spain, error?.message ?? "")
    }

    func testAnAsynchronousTypedFetchOfTheParentReportsTheCountry() throws {
        try fillAtlas()
        let done = expectation(description: "completion")
        let request = AsynchronousFetchRequest(fetchRequest: FetchRequest<Region>(entityName: "Region")) { result in
            XCTAssertNil(result.finalResult)
            let message = (result.operationError as? PersistenceError)?.message ?? ""
            XCTAssertTrue(message.contains("AsynchronousFetchRequest<Region> for Region found an object of its subentity Country"), message)
            done.fulfill()
        }
        try context.execute(request)
        wait(for: [done], timeout: 10)
    }

    // MARK: - Relationships to the parent

    func testARelationshipToTheParentHoldsACountry() throws {
        try fillAtlas()
        let france = try XCTUnwrap(byName("Country").first as? Country)
        let europe = try XCTUnwrap(byName("Region").first { $0.entity.name == "Region" })
        let ada = Traveller(context: context)
        ada.name = "Ada"
        ada.home = france
        let bob = Traveller(context: context)
        bob.name = "Bob"
        bob.setValue(europe, forKey: "home")
        try context.save()
        XCTAssertEqual(france.residents.map(\.name), ["Ada"], "the inverse is kept on the country")

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let travellers = try reader.fetch(FetchRequest<Traveller>(entityName: "Traveller")).sorted { $0.name < $1.name }
            let home = try XCTUnwrap(travellers.first?.home as? Country, "the to-one gives back the country as a Country")
            XCTAssertEqual(home.code, "FR")
            XCTAssertEqual(home.value(forKey: "name") as? String, "France")
            XCTAssertEqual(home.residents.map(\.name), ["Ada"])
            XCTAssertTrue(travellers.last?.home is Region)
            let request = FetchRequest<Traveller>(entityName: "Traveller")
            request.predicate = FetchPredicate(format: "home.name == %@", "France")
            XCTAssertEqual(try reader.fetch(request).map(\.name), ["Ada"], "a key path through the relationship reaches the country's inherited attribute")
        }
    }

    func testARelationshipTypedWithTheParentsClassIsRefusedWhenASubentityHasAnother() throws {
        let postcard = EntityDescription(name: "Postcard", managedObjectClass: Postcard.self, properties: [
            .toOne("place", "Region", inverse: nil),
        ])
        let error = assertPersistenceError(.coreData) { _ = try Self.atlas(extra: [postcard]) }
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("Postcard.place is declared with Region, but its destination Region has the subentity Country, whose class Country is not Region"), message)
        XCTAssertEqual(error?.key, "place")
    }
}
