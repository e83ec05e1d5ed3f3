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
    /// Unlike Core Data's failable ``init(contentsOf:)`` this one throws, and the error names the file, the line, the
    /// entity and the property: a file that is missing (260) or not well-formed XML (259), an unknown document
    /// version or attribute type, a relationship to a missing entity or a missing inverse, and features this
    /// library does not support yet (transient relationships, derived attributes, validation rules, fetched
    /// properties) are all reported rather than loaded half-way (134060 for model problems). Transient attributes
    /// (`transient="YES"`) load as ``PropertyDescription/isTransient``; a transformable attribute whose
    /// Transformer field is empty loads with Core Data's default transformer, and ``warnings`` says so.
    ///
    /// Persistence's stand-in for what Core Data needs no API for: on Apple platforms Xcode compiles the model and
    /// the Objective-C runtime finds each entity's class by its name; on Linux there is no Objective-C runtime, and the
    /// Swift runtime finds a class by name only when it is top-level and its module is known, so the others are
    /// handed over here. In the `ModelLoading` SPI group
    /// (`@_spi(ModelLoading) import Persistence`); Core Data's own form is ``init(contentsOf:)``.
    @_spi(ModelLoading) public convenience init(contentsOf url: URL, managedObjectClasses: [ManagedObject.Type] = [],
                                                modules: [String] = []) throws {
        let reader = ModelFileReader(classes: ManagedObjectClassResolver(registered: managedObjectClasses, moduleHints: modules))
        let declarations = try reader.read(at: url)
        do {
            try self.init(entities: declarations.contents.entities, configurations: declarations.contents.configurations)
        } catch {
            throw declarations.locate(error)
        }
        warnings = declarations.contents.warnings + warnings
        if let identifier = declarations.contents.versionIdentifier { versionIdentifiers = [identifier] }
        // The other versions of a `.xcdatamodeld`, for lightweight migration to find the model a store was written
        // with (Core Data looks through the app's bundles for them).
        // Only the versions before this one: a store written by a later version is not migrated back (which Core
        // Data would do only if it found the later model among the app's; an app never ships its future models).
        if let folder = try reader.modelFolder(for: url) {
            let loaded = declarations.file.deletingLastPathComponent().lastPathComponent
            // Each is read only when the search reaches it, newest first, so an old version that no longer reads
            // costs nothing until it is needed, and then only skips itself.
            versionsLoader = {
                let versions = try Self.versionURLs(ofModelAt: folder)
                return versions.prefix { $0.lastPathComponent != loaded }.reversed().map { url in
                    ModelVersion(name: String(url.lastPathComponent.dropLast(".xcdatamodel".count))) {
                        let plain = ManagedObjectClassResolver(registered: [], moduleHints: [], plainObjectsOnly: true)
                        return try ManagedObjectModel(reading: url, classes: plain)
                    }
                }
            }
        }
    }

    /// Reads a model drawn in Xcode, as Core Data's `NSManagedObjectModel(contentsOf:)` does: nil when it cannot be
    /// read. The reason is printed to standard error; to handle it, call
    /// ``init(contentsOf:managedObjectClasses:modules:)``, which throws it (and takes the classes to use).
    public convenience init?(contentsOf url: URL) {
        do {
            try self.init(contentsOf: url, managedObjectClasses: [], modules: [])
        } catch {
            FileHandle.standardError.write(Data("ManagedObjectModel(contentsOf: \(url.path)): \(error)\n".utf8))
            return nil
        }
    }

    /// Reads one version, with the class resolver of the model that asked for it.
    private convenience init(reading url: URL, classes: ManagedObjectClassResolver) throws {
        let declarations = try ModelFileReader(classes: classes).read(at: url)
        do {
            try self.init(entities: declarations.contents.entities, configurations: declarations.contents.configurations)
        } catch {
            throw declarations.locate(error)
        }
        if let identifier = declarations.contents.versionIdentifier { versionIdentifiers = [identifier] }
    }

    /// The versions of the Xcode model at `url` — the `.xcdatamodel` folders of a `.xcdatamodeld` — in Xcode's
    /// order (`Moody.xcdatamodel`, `Moody 2.xcdatamodel`, … `Moody 10.xcdatamodel`); a single `.xcdatamodel`
    /// (or its `contents` file) is its own only version. Read each with ``init(contentsOf:managedObjectClasses:modules:)``;
    /// the current one is the version `.xccurrentversion` names, which reading the `.xcdatamodeld` itself gives.
    ///
    /// Persistence-only (Xcode compiles a `.xcdatamodeld` into a `.momd` whose versions Core Data finds itself): in
    /// the `ModelLoading` SPI group.
    @_spi(ModelLoading) public static func versionURLs(ofModelAt url: URL) throws -> [URL] {
        let reader = ModelFileReader(classes: ManagedObjectClassResolver(registered: [], moduleHints: []))
        guard let folder = try reader.modelFolder(for: url) else { return [url] }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
        // By name without the extension: "Moody" before "Moody 2" ("Moody 2.x" would sort before "Moody.x").
        func stem(_ name: String) -> String { String(name.dropLast(".xcdatamodel".count)) }
        return names.sorted { stem($0).compare(stem($1), options: .numeric) == .orderedAscending }
            .map { folder.appendingPathComponent($0) }
    }
}
