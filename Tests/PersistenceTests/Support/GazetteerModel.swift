@_spi(ModelBuilding) @_spi(TestHarness) import Persistence

/// Region ← Country, Region ← Province (siblings, each with its own `population`: ZPOPULATION and ZPOPULATION1).
///
/// Mood ─country→ Country (inverse moods: rule set per test)    Mood ─province→ Province (inverse residents)
/// Mood ─home→ Region (rule set per test; inverse visitors)     Mood ⇄ Country (favourites / fans, many-to-many)
///
/// Shared by the tests of key paths into subentities and of batch requests on hierarchies.
enum Gazetteer {
    class Region: ManagedObject {
        @Managed var name: String
        @Managed var visitors: Set<Mood>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Region> {
            FetchRequest<Region>(entityName: "Region")
        }
    }

    final class Country: Region {
        @Managed var population: Int
        @Managed var moods: Set<Mood>
        @Managed var fans: Set<Mood>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Country> {
            FetchRequest<Country>(entityName: "Country")
        }
    }

    final class Province: Region {
        @Managed var population: Int
        @Managed var residents: Set<Mood>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Province> {
            FetchRequest<Province>(entityName: "Province")
        }
    }

    final class Mood: ManagedObject {
        @Managed var label: String
        @Managed var score: Int
        @Managed var markedForDeletion: Bool
        @Managed var country: Country?
        @Managed var province: Province?
        @Managed var home: Region?
        @Managed var favourites: Set<Country>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Mood> {
            FetchRequest<Mood>(entityName: "Mood")
        }
    }

    static func make(countryMoods: DeleteRule = .nullify, moodHome: DeleteRule = .nullify) throws -> ManagedObjectModel {
        let region = EntityDescription(name: "Region", managedObjectClass: Region.self, properties: [
            .attribute("name", .string, optional: false),
            .toMany("visitors", "Mood", inverse: "home"),
        ])
        let country = EntityDescription(name: "Country", managedObjectClass: Country.self, parent: region, properties: [
            .attribute("population", .integer64, optional: false, defaultValue: 0),
            .toMany("moods", "Mood", inverse: "country", deleteRule: countryMoods),
            .toMany("fans", "Mood", inverse: "favourites"),
        ])
        let province = EntityDescription(name: "Province", managedObjectClass: Province.self, parent: region, properties: [
            .attribute("population", .integer64, optional: false, defaultValue: 0),
            .toMany("residents", "Mood", inverse: "province"),
        ])
        let mood = EntityDescription(name: "Mood", managedObjectClass: Mood.self, properties: [
            .attribute("label", .string, optional: false),
            .attribute("score", .integer64, optional: false, defaultValue: 0),
            .attribute("markedForDeletion", .boolean, optional: false, defaultValue: .bool(false)),
            .toOne("country", "Country", inverse: "moods"),
            .toOne("province", "Province", inverse: "residents"),
            .toOne("home", "Region", inverse: "visitors", deleteRule: moodHome),
            .toMany("favourites", "Country", inverse: "fans"),
        ])
        return try ManagedObjectModel(entities: [region, country, province, mood])
    }
}
