import Foundation

extension ManagedObjectModel {
    /// Reads a model drawn in Xcode: a `.xcdatamodeld` folder (its current version), a single `.xcdatamodel`
    /// folder, or the `contents` XML file inside one.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(contentsOf: Bundle.module.url(forResource: "Films", withExtension: "xcdatamodeld")!,
    ///                                    managedObjectClasses: [Movie.self, Director.self])
    /// ```
    ///
    /// Each entity's `representedClassName` picks its class: one of `managedObjectClasses` (by full or short
    /// name), or a top-level class the Swift runtime finds by name (module-qualified, or in one of
    /// `modules`). When none is found the entity uses `ManagedObject`, as Core Data does, and ``warnings``
    /// says so.
    ///
    /// Unlike Core Data's failable initialiser this one throws, and the error names the file, the line, the
    /// entity and the property: a file that is missing (260) or not well-formed XML (259), an unknown document
    /// version or attribute type, a relationship to a missing entity or a missing inverse, and features this
    /// library does not support yet (transient relationships, derived attributes, validation rules, fetched
    /// properties) are all reported rather than loaded half-way (134060 for model problems). Transient attributes
    /// (`transient="YES"`) load as ``AttributeDescription/isTransient``; a transformable attribute whose
    /// Transformer field is empty loads with Core Data's default transformer, and ``warnings`` says so.
    public convenience init(contentsOf url: URL, managedObjectClasses: [ManagedObject.Type] = [],
                            modules: [String] = []) throws {
        let reader = ModelFileReader(classes: ManagedObjectClassResolver(registered: managedObjectClasses, moduleHints: modules))
        let declarations = try reader.read(at: url)
        do {
            try self.init(entities: declarations.contents.entities, configurations: declarations.contents.configurations)
        } catch {
            throw declarations.locate(error)
        }
        warnings = declarations.contents.warnings + warnings
    }
}
