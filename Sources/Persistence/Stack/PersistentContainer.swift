import Foundation

/// The whole stack in one object: a model, a coordinator, a store, a main-queue ``viewContext`` and
/// background contexts on demand.
///
/// ```swift
/// let container = PersistentContainer(name: "Movies", managedObjectModel: model)
/// container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]  // tests
/// container.loadPersistentStores { description, error in
///     if let error { print("could not load \(description.url?.path ?? "a store"): \(error)") }
/// }
/// ```
public final class PersistentContainer: @unchecked Sendable {
    /// The container's name: the store file's name by default, and the model's when it is looked up by name.
    public let name: String
    /// The model of the container's store.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator every context of the container reads from and saves to.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// Where and how the store is opened. By default: `<name>.sqlite` in ``defaultDirectoryURL()``.
    public var persistentStoreDescriptions: [PersistentStoreDescription]
    private let viewContextLock = NSLock()
    private var _viewContext: ManagedObjectContext?
    /// Why the model named in ``init(name:)`` could not be loaded, as logged; nil when it was. Set only while
    /// initialising.
    private(set) var modelLoadingError: PersistenceError?

    /// A container for `managedObjectModel`; its store opens when you call ``loadPersistentStores(completionHandler:)``.
    public init(name: String, managedObjectModel: ManagedObjectModel) {
        self.name = name
        self.managedObjectModel = managedObjectModel
        self.persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        self.persistentStoreDescriptions = [
            PersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite")),
        ]
    }

    /// A container for the model drawn in Xcode as `<name>.xcdatamodeld`, found among the program's resources
    /// (the main bundle, the SwiftPM resource bundles beside it, every loaded bundle), as Core Data's
    /// `NSPersistentContainer(name:)` finds `<name>.momd`.
    ///
    /// ```swift
    /// let container = PersistentContainer(name: "HelloCoreData")
    /// container.loadPersistentStores { _, error in
    ///     if let error { print(error) }
    /// }
    /// ```
    ///
    /// When the model is missing or cannot be read, Core Data logs "Failed to load model named …" and carries on
    /// with no entities; what ``loadPersistentStores(completionHandler:)`` then reports is undocumented. This
    /// container takes the reading that hides the mistake longest, as a device may: it writes
    /// `CoreData: error: Failed to load model named …` (with the reason and the folders searched) to standard error,
    /// starts with an empty model, and loads its stores without an error; the first fetch or insert by entity then
    /// fails, saying why the model is empty. To catch a wrong name where it happens, look the model up first (a
    /// failable ``ManagedObjectModel/init(contentsOf:)`` handed to ``init(name:managedObjectModel:)``).
    /// Classes come from each entity's `representedClassName`, found by the Swift runtime
    /// (top-level classes, module-qualified or in the program's module); hand over the others with
    /// ``init(name:managedObjectClasses:)``.
    public convenience init(name: String) {
        self.init(name: name, locator: ModelResourceLocator(), managedObjectClasses: [])
    }

    /// A container for the model `<name>.xcdatamodeld`, found as ``init(name:)`` finds it, whose entities use
    /// `managedObjectClasses` where the runtime cannot find their classes by name (see
    /// ``ManagedObjectModel/init(contentsOf:managedObjectClasses:modules:)``).
    ///
    /// Persistence's stand-in for the class lookup by name that Core Data does through the Objective-C runtime,
    /// which Linux has not: in the `ModelLoading` SPI group (`@_spi(ModelLoading) import Persistence`). Core Data's
    /// own forms are ``init(name:)`` and ``init(name:managedObjectModel:)``.
    @_spi(ModelLoading) public convenience init(name: String, managedObjectClasses: [ManagedObject.Type]) {
        self.init(name: name, locator: ModelResourceLocator(), managedObjectClasses: managedObjectClasses)
    }

    /// A container for the model `<name>.xcdatamodeld` among `bundle`'s resources — `Bundle.module` for a
    /// model shipped as a SwiftPM resource (`resources: [.process("Films.xcdatamodeld")]`).
    ///
    /// Persistence-only, in the `ModelLoading` SPI group: Core Data's `init(name:)` looks in the main bundle only,
    /// and a model from another bundle is read with `NSManagedObjectModel(contentsOf:)` and handed to
    /// ``init(name:managedObjectModel:)``.
    @_spi(ModelLoading) public convenience init(name: String, bundle: Bundle, managedObjectClasses: [ManagedObject.Type] = []) {
        self.init(name: name, locator: ModelResourceLocator(bundle: bundle), managedObjectClasses: managedObjectClasses)
    }

    private convenience init(name: String, locator: ModelResourceLocator, managedObjectClasses: [ManagedObject.Type]) {
        do {
            guard let found = locator.find(name) else {
                // A name given with its file extension is the likeliest slip: say so first.
                let stem = [".xcdatamodeld", ".xcdatamodel", ".momd", ".mom"].first { name.hasSuffix($0) }
                    .map { String(name.dropLast($0.count)) }
                let hint = stem.map { "The name is the file's name without its extension: \"\($0)\". " } ?? ""
                throw PersistenceError(.fileReadNoSuchFile, """
                    Failed to load model named \(name): there is no \(name).xcdatamodeld (or \(name).xcdatamodel) among the \
                    resources searched (\(locator.searchedFolders.joined(separator: ", "))). \(hint)The name given to \
                    PersistentContainer must be the model file's name, and the model must be a resource of the target \
                    (resources: [.process("\(name).xcdatamodeld")]) whose bundle is searched (pass bundle: .module).
                    """)
            }
            let model = try ManagedObjectModel(contentsOf: found.url, managedObjectClasses: managedObjectClasses, modules: found.modules)
            self.init(name: name, managedObjectModel: model)
        } catch {
            var failure = error as? PersistenceError ?? PersistenceError(.coreData, "\(error)")
            if !failure.message.hasPrefix("Failed to load model named") {
                failure = failure.with(message: "Failed to load model named \(name): " + failure.message)
            }
            let empty = ManagedObjectModel()
            empty.loadingFailure = failure.message
            self.init(name: name, managedObjectModel: empty)
            modelLoadingError = failure
            FileHandle.standardError.write(Data("CoreData: error: \(failure.message)\n".utf8))
        }
    }

    /// The folder stores go in by default: `$XDG_DATA_HOME` or `~/.local/share` on Linux, Application Support on macOS.
    public class func defaultDirectoryURL() -> URL {
        #if os(Linux)
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        #else
        return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        #endif
    }

    /// Loads every described store and calls `completionHandler` once per store, with the error if it failed.
    /// Errors: 260 missing folder, 257/513 no permission (the message says which file or folder), 259 not a
    /// database, 134100 a store made with another model, 134000 a second store, a bad URL or none. A container made
    /// by name whose model could not be loaded loads its stores with its empty model and reports nothing (see
    /// ``init(name:)``).
    ///
    /// Synchronous unless a description asks for ``PersistentStoreDescription/shouldAddStoreAsynchronously``: the
    /// handler runs on the calling thread before the call returns, and it is not `@Sendable` (as Core Data declares
    /// it), so it may write a variable the caller reads after the call.
    public func loadPersistentStores(completionHandler: @escaping (PersistentStoreDescription, (any Error)?) -> Void) {
        let defaultFolder = Self.defaultDirectoryURL().standardizedFileURL
        for description in persistentStoreDescriptions {
            persistentStoreCoordinator.addPersistentStore(with: description, preparing: {
                // The default location is ours to make; a folder the caller named must already exist.
                let folder = description.url?.deletingLastPathComponent().standardizedFileURL
                if let folder, folder == defaultFolder, !FileManager.default.fileExists(atPath: folder.path) {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                }
            }, completionHandler: completionHandler)
        }
    }

    /// The main-queue context, for the UI (and for tests, which run on the main thread).
    public var viewContext: ManagedObjectContext {
        viewContextLock.withLock {
            if let context = _viewContext { return context }
            let context = ManagedObjectContext(.mainQueue)
            context.persistentStoreCoordinator = persistentStoreCoordinator
            context.name = "viewContext"
            _viewContext = context
            return context
        }
    }

    /// A new private-queue context connected straight to the store.
    public func newBackgroundContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(.privateQueue)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new background context's queue.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its result.
    ///
    /// It throws what `block` throws, and only that, so a block that cannot throw is awaited without `try`:
    /// `let count = await container.performBackgroundTask { context in … }`.
    public func performBackgroundTask<T: Sendable, E: Error>(
        _ block: @escaping @Sendable (ManagedObjectContext) throws(E) -> T
    ) async throws(E) -> T {
        let context = newBackgroundContext()
        return try await context.perform { () throws(E) -> T in try block(context) }
    }
}
