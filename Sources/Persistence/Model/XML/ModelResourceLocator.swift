import Foundation

/// Finds a model file by name among a program's resources, as `PersistentContainer(name:)` does: `Name.xcdatamodeld`
/// (or a single `Name.xcdatamodel`) in a bundle's resources or in folders a few levels below them. A model
/// shipped with `.copy("Name.xcdatamodeld")` stays as written on every platform; `.process` keeps it as written on
/// Linux.
///
/// Without a given bundle it looks in the main bundle, in the resource bundles SwiftPM places beside the
/// executable (`Package_Target.resources` on Linux, `.bundle` on macOS) and in every loaded bundle.
struct ModelResourceLocator {
    /// One folder to search, the module names its classes are likely to live in, and how many folder levels
    /// below it a model may sit.
    struct Place {
        let folder: URL
        let modules: [String]
        let depth: Int
    }

    let places: [Place]

    /// How deep below a resource bundle a model may sit (`.copy("Resources/Models")` puts it two levels down).
    static let bundleDepth = 3

    init(bundle: Bundle) {
        places = [Place(folder: bundle.resourceURL ?? bundle.bundleURL,
                        modules: Self.modules(ofBundleNamed: bundle.bundleURL.lastPathComponent), depth: Self.bundleDepth)]
    }

    /// The main bundle, the resource bundles beside it and every loaded bundle.
    init() {
        // On Linux the main bundle is the executable's build folder: only its top level is the program's own.
        var places = [Place(folder: Bundle.main.resourceURL ?? Bundle.main.bundleURL,
                            modules: [ProcessInfo.processInfo.processName], depth: 0)]
        let neighbours = (try? FileManager.default.contentsOfDirectory(at: Bundle.main.bundleURL, includingPropertiesForKeys: nil)) ?? []
        for url in neighbours.sorted(by: { $0.lastPathComponent < $1.lastPathComponent })
        where ["resources", "bundle"].contains(url.pathExtension) {
            places.append(Place(folder: url, modules: Self.modules(ofBundleNamed: url.lastPathComponent), depth: Self.bundleDepth))
        }
        for bundle in Bundle.allBundles {
            let folder = bundle.resourceURL ?? bundle.bundleURL
            guard !places.contains(where: { $0.folder == folder }) else { continue }
            places.append(Place(folder: folder, modules: Self.modules(ofBundleNamed: bundle.bundleURL.lastPathComponent), depth: 1))
        }
        self.places = places
    }

    /// The model named `name` and the modules to look for its classes in, or nil.
    func find(_ name: String) -> (url: URL, modules: [String])? {
        for place in places {
            if let url = Self.search(place.folder, for: name, depth: place.depth) { return (url, place.modules) }
        }
        return nil
    }

    private static func search(_ folder: URL, for name: String, depth: Int) -> URL? {
        // A compiled model is returned too, so that the error says why it cannot be read rather than "not found".
        for candidate in ["\(name).xcdatamodeld", "\(name).xcdatamodel", "\(name).momd", "\(name).mom"] {
            let url = folder.appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        guard depth > 0 else { return nil }
        let children = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey],
                                                                      options: [.skipsHiddenFiles])) ?? []
        for child in children.sorted(by: { $0.lastPathComponent < $1.lastPathComponent })
        where !["xcdatamodeld", "xcdatamodel"].contains(child.pathExtension)
            && (try? child.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
            if let url = search(child, for: name, depth: depth - 1) { return url }
        }
        return nil
    }

    /// SwiftPM names a target's resource bundle `Package_Target.resources` (`.bundle` on macOS); the target's
    /// module is what follows an underscore. Names can hold underscores themselves, so every split is offered.
    static func modules(ofBundleNamed bundleName: String) -> [String] {
        let base = (bundleName as NSString).deletingPathExtension
        var modules: [String] = []
        var rest = Substring(base)
        while let underscore = rest.firstIndex(of: "_") {
            rest = rest[rest.index(after: underscore)...]
            if !rest.isEmpty { modules.append(String(rest)) }
        }
        return modules
    }

    /// Where the search looked, for the error when nothing was found.
    var searchedFolders: [String] { places.map(\.folder.path) }
}
