import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence

// A small film catalogue that uses every kind of property and delete rule.

final class Movie: ManagedObject {
    @Managed var title: String
    @Managed var year: Int
    @Managed var rating: NSNumber?
    @Managed var director: Director?
    @Managed var studio: Studio?
    @Managed var actors: Set<Actor>
    @Managed var scenes: NSOrderedSet
    /// The scenes as an array, the way an app wraps an ordered relationship's `NSOrderedSet`.
    var sceneList: [Scene] {
        get { scenes.array as! [Scene] }
        set { scenes = NSOrderedSet(array: newValue) }
    }

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Movie> {
        FetchRequest<Movie>(entityName: "Movie")
    }
}

final class Director: ManagedObject {
    @Managed var name: String
    @Managed var born: Date?
    @Managed var movies: Set<Movie>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Director> {
        FetchRequest<Director>(entityName: "Director")
    }
}

final class Actor: ManagedObject {
    @Managed var name: String
    @Managed var movies: Set<Movie>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Actor> {
        FetchRequest<Actor>(entityName: "Actor")
    }
}

final class Scene: ManagedObject {
    @Managed var number: Int
    @Managed var summary: String?
    @Managed var movie: Movie?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Scene> {
        FetchRequest<Scene>(entityName: "Scene")
    }
}

final class Studio: ManagedObject {
    @Managed var name: String
    @Managed var movies: Set<Movie>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Studio> {
        FetchRequest<Studio>(entityName: "Studio")
    }
}

/// One attribute of every type.
final class Sample: ManagedObject {
    @Managed var text: String?
    @Managed var small: NSNumber?
    @Managed var medium: NSNumber?
    @Managed var large: NSNumber?
    @Managed var real: NSNumber?
    @Managed var single: NSNumber?
    @Managed var flag: NSNumber?
    @Managed var when: Date?
    @Managed var identifier: UUID?
    @Managed var link: URL?
    @Managed var bytes: Data?
    @Managed var amount: Decimal?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Sample> {
        FetchRequest<Sample>(entityName: "Sample")
    }
}

enum TestModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", managedObjectClass: Movie.self, properties: [
                .attribute("title", .string, optional: false),
                .attribute("year", .integer32, defaultValue: 2000),
                .attribute("rating", .double),
                .toOne("director", "Director", inverse: "movies"),
                .toOne("studio", "Studio", inverse: "movies"),
                .toMany("actors", "Actor", inverse: "movies"),
                .toMany("scenes", "Scene", inverse: "movie", ordered: true, deleteRule: .cascade),
            ], uniquenessConstraints: [["title", "year"]]),
            EntityDescription(name: "Director", managedObjectClass: Director.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("born", .date),
                .toMany("movies", "Movie", inverse: "director", deleteRule: .nullify),
            ]),
            EntityDescription(name: "Actor", managedObjectClass: Actor.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("movies", "Movie", inverse: "actors"),
            ]),
            EntityDescription(name: "Scene", managedObjectClass: Scene.self, properties: [
                .attribute("number", .integer64, optional: false),
                .attribute("summary", .string),
                .toOne("movie", "Movie", inverse: "scenes"),
            ]),
            EntityDescription(name: "Studio", managedObjectClass: Studio.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("movies", "Movie", inverse: "studio", deleteRule: .deny),
            ]),
            EntityDescription(name: "Sample", managedObjectClass: Sample.self, properties: [
                .attribute("text", .string), .attribute("small", .integer16), .attribute("medium", .integer32),
                .attribute("large", .integer64), .attribute("real", .double), .attribute("single", .float),
                .attribute("flag", .boolean), .attribute("when", .date), .attribute("identifier", .uuid),
                .attribute("link", .uri), .attribute("bytes", .binaryData), .attribute("amount", .decimal),
            ]),
        ])
    }
}
