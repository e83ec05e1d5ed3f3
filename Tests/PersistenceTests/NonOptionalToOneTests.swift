import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence
import XCTest

/// A to-one relationship declared non-optional, `@Managed var country: Country`, as Core Data accepts
/// `@NSManaged var country: Country`: it sets and reads as `Country?` does, and a read while the relationship is
/// nil is a programming error naming the class, the property and the object (stopping by default).
final class NonOptionalToOneTests: PersistenceTestCase {
    final class Country: ManagedObject {
        @Managed var name: String?
        @Managed var visits: Set<Visit>
    }

    final class Visit: ManagedObject {
        @Managed var country: Country
        @Managed var home: Country
        @Managed var note: String?
    }

    /// Declares non-optional what the model makes to-many.
    final class Tour: ManagedObject {
        @Managed var stops: Country
    }

    /// Declares a to-one where the model has an attribute.
    final class Postcard: ManagedObject {
        @Managed var stamp: Country
    }

    private let reported = ReportedList<NilRead>()

    /// `country` is optional in the model, `home` is not: the Swift declaration is independent of either.
    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Country", managedObjectClass: Country.self, properties: [
                .attribute("name", .string),
                .toMany("visits", "Visit", inverse: "country"),
            ]),
            EntityDescription(name: "Visit", managedObjectClass: Visit.self, properties: [
                .toOne("country", "Country", inverse: "visits"),
                .toOne("home", "Country", inverse: nil, optional: false),
                .attribute("note", .string),
            ]),
        ])
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        reportNilReads(into: reported)
    }

    private func makeCountry(_ name: String) -> Country {
        let country = Country(context: context)
        country.name = name
        return country
    }

    func testItSetsAndReadsAsAnOptionalToOneAndTheInverseFollows() throws {
        let france = makeCountry("France")
        let visit = Visit(context: context)
        visit.country = france
        visit.home = france
        XCTAssertTrue(visit.country === france)
        XCTAssertEqual(france.visits, [visit], "the inverse is set as for Country?")
        try context.save()

        let reader = container.newBackgroundContext()
        let names = try reader.performAndWait {
            let read = try XCTUnwrap(try reader.fetch(FetchRequest<Visit>(entityName: "Visit")).first)
            return [read.country.name, read.home.name]
        }
        XCTAssertEqual(names, ["France", "France"])
        XCTAssertTrue(reported.take().isEmpty)
    }

    func testReplacingTheObjectMovesTheVisitBetweenInverses() {
        let france = makeCountry("France")
        let spain = makeCountry("Spain")
        let visit = Visit(context: context)
        visit.country = france
        visit.country = spain
        XCTAssertTrue(visit.country === spain)
        XCTAssertTrue(france.visits.isEmpty)
        XCTAssertEqual(spain.visits, [visit])
    }

    func testAReadWhileNilIsReportedNamingTheClassThePropertyAndTheObject() throws {
        let visit = Visit(context: context)
        _ = visit.country
        let read = try XCTUnwrap(reported.take().first)
        XCTAssertEqual(read.key, "country")
        XCTAssertEqual(read.typeName, "Country")
        let message = read.description
        XCTAssertTrue(message.contains("Visit.country"), message)
        XCTAssertTrue(message.contains(visit.objectID.uriRepresentation().absoluteString), message)
        XCTAssertTrue(message.contains("to-one relationship"), message)
        XCTAssertTrue(message.contains("Declare the property Country?"), message)
    }

    /// Set to nil through key-value coding (the Swift property cannot take nil): the next read is reported.
    func testASavedVisitWhoseCountryIsSetToNilIsReportedWhenRead() throws {
        let france = makeCountry("France")
        let visit = Visit(context: context)
        visit.country = france
        visit.home = france
        try context.save()
        visit.setValue(nil, forKey: "country")
        _ = visit.country
        XCTAssertEqual(reported.take().map(\.key), ["country"])
        _ = visit.home
        XCTAssertTrue(reported.take().isEmpty)
    }

    func testAKeyPathThroughItNamesTheModelKeyPath() {
        let sort = FetchSortDescriptor(keyPath: \Visit.country.name, ascending: true)
        XCTAssertEqual(sort.key, "country.name")
        XCTAssertTrue(reported.take().isEmpty, "recording a key path reads no value")
    }

    /// The error making a model of Country, Visit and `extra` gives.
    private func refusal(of extra: EntityDescription, file: StaticString = #filePath,
                         line: UInt = #line) -> PersistenceError? {
        assertPersistenceError(.coreData, file: file, line: line) {
            _ = try ManagedObjectModel(entities: [
                EntityDescription(name: "Country", managedObjectClass: Country.self, properties: [
                    .attribute("name", .string), .toMany("visits", "Visit", inverse: nil),
                ]),
                EntityDescription(name: "Visit", managedObjectClass: Visit.self, properties: [
                    .toOne("country", "Country", inverse: nil), .toOne("home", "Country", inverse: nil),
                    .attribute("note", .string),
                ]),
                extra,
            ])
        }
    }

    func testDeclaredOverAToManyRelationshipTheModelIsRefusedByName() {
        let error = refusal(of: EntityDescription(name: "Tour", managedObjectClass: Tour.self, properties: [
            .toMany("stops", "Country", inverse: nil),
        ]))
        XCTAssertTrue(error?.message.contains("Tour.stops") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("to-many") == true, "\(String(describing: error))")
    }

    func testDeclaredOverAnAttributeTheModelIsRefusedByName() {
        let error = refusal(of: EntityDescription(name: "Postcard", managedObjectClass: Postcard.self, properties: [
            .attribute("stamp", .string),
        ]))
        XCTAssertTrue(error?.message.contains("Postcard.stamp") == true, "\(String(describing: error))")
    }
}
