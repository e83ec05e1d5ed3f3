import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence

// Sketches whose on-screen state lives in memory only: transient attributes on a parent, on a subentity and on an
// entity outside any hierarchy.
//
//   Sketch (title; transient: isSelected, zoom, caption)
//   └── Storyboard (pages; transient: openPage)
//   Swatch (name, sketch; transient: isPinned)

class Sketch: ManagedObject {
    @Managed var title: String
    @Managed var isSelected: Bool
    @Managed var zoom: Double
    @Managed var caption: String?
    @Managed var swatches: Set<Swatch>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Sketch> {
        FetchRequest<Sketch>(entityName: "Sketch")
    }
}

final class Storyboard: Sketch {
    @Managed var pages: Int
    @Managed var openPage: Int

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Storyboard> {
        FetchRequest<Storyboard>(entityName: "Storyboard")
    }
}

final class Swatch: ManagedObject {
    @Managed var name: String
    @Managed var isPinned: Bool
    @Managed var sketch: Sketch?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Swatch> {
        FetchRequest<Swatch>(entityName: "Swatch")
    }
}

enum SketchbookModel {
    /// The sketchbook in code: the same entities as Fixtures/Models/Sketchbook.xcdatamodel.
    static func make() throws -> ManagedObjectModel {
        let sketch = EntityDescription(name: "Sketch", managedObjectClass: Sketch.self, properties: [
            .attribute("title", .string, optional: false),
            .attribute("isSelected", .boolean, optional: false, defaultValue: false, transient: true),
            .attribute("zoom", .double, optional: false, defaultValue: 1.0, transient: true),
            .attribute("caption", .string, transient: true),
            .toMany("swatches", "Swatch", inverse: "sketch"),
        ])
        let storyboard = EntityDescription(name: "Storyboard", managedObjectClass: Storyboard.self, parent: sketch, properties: [
            .attribute("pages", .integer32, optional: false, defaultValue: 1),
            .attribute("openPage", .integer32, optional: false, defaultValue: 0, transient: true),
        ])
        let swatch = EntityDescription(name: "Swatch", managedObjectClass: Swatch.self, properties: [
            .attribute("name", .string, optional: false),
            .attribute("isPinned", .boolean, optional: false, defaultValue: false, transient: true),
            .toOne("sketch", "Sketch", inverse: "swatches"),
        ])
        return try ManagedObjectModel(entities: [sketch, storyboard, swatch])
    }
}
