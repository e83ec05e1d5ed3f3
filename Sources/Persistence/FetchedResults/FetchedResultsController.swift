import Foundation

/// A fetch that stays live: the results of a request, split into sections, kept up to date as the context changes,
/// and each change told to a delegate with the index paths a table needs (Core Data's `NSFetchedResultsController`).
///
/// ```swift
/// let request: FetchRequest<Movie> = Movie.fetchRequest()
/// request.sortDescriptors = [
///     FetchSortDescriptor(key: "year", ascending: true), FetchSortDescriptor(key: "title", ascending: true),
/// ]
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: "year", cacheName: nil)
/// controller.delegate = screen
/// try controller.performFetch()
/// for section in controller.sections ?? [] {
///     print(section.name, section.numberOfObjects)
/// }
/// let first = controller.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// **Sections.** With a ``sectionNameKeyPath`` the objects are split into sections by that key path's value
/// (see ``FetchedResultsSectionInfo/name``); without one there is a single section. The key path is read from each
/// object as Core Data reads it, by key-value coding: an attribute, persisted or transient, through to-one
/// relationships (`group.name`), or a key the model lacks that the object's class computes and answers in
/// ``ManagedObject/value(forUndefinedKey:)`` (where a Swift class on Apple's platforms declares an `@objc`
/// property). A nil value names the section `""`. The request must have sort descriptors, and with sections its
/// first sort descriptor must order the objects as the section key does (the same key, or one that sorts the same
/// way — a date, for sections named by the month computed from it): ``performFetch()`` throws when a section's
/// objects are not together.
///
/// **Tracking changes.** With a ``delegate``, the controller follows its context: every
/// ``ManagedObjectContext/didChangeObjectsNotification`` — so changes made in the context once
/// ``ManagedObjectContext/processPendingChanges()`` runs (or a save starts), saves of other contexts merged in
/// (``ManagedObjectContext/mergeChanges(fromContextDidSave:)``, automatic merging), refreshes and rollbacks —
/// becomes one batch: objects that start or stop matching the request's predicate are inserted or deleted, an
/// object whose sort keys changed moves (to another section when its section key changed), any other change is an
/// update. The predicate is evaluated in memory on the changed objects only and each is put in place by the sort
/// descriptors; nothing is fetched again. As in Core Data: without a delegate, or with one that implements none of
/// the change-tracking methods (see ``FetchedResultsControllerDelegate``), nothing is tracked; changes to
/// *related* objects (a sort or predicate through `director.name` when a director is renamed) are not seen; a
/// fetch limit applies to the fetch only; a reset of the context (``ManagedObjectContext/reset()``) is not
/// followed — call ``performFetch()`` again; and changing the request's predicate or sort descriptors needs a new
/// ``performFetch()`` (until then the rows stay as fetched, while the next changes are judged by the new rules,
/// as Core Data reads the request again for each batch).
///
/// **Index paths** are Foundation's `IndexPath`, with two indexes: section, then row. UIKit adds `row` and
/// `section` to it (AppKit `item` and `section`); on Linux Persistence adds the same (`IndexPath(row:section:)`,
/// `indexPath.row`, `indexPath.section`, `indexPath.item`), so table code reads as it does in an app.
///
/// **The delegate's controller.** The delegate's methods take `FetchedResultsController<any FetchRequestResult>`,
/// Core Data's `NSFetchedResultsController<NSFetchRequestResult>`. Swift classes are not covariant in their type
/// parameter, so a `FetchedResultsController<Movie>` hands its delegate a second controller of that type which
/// shares everything with it — results, sections, delegate — but is another object: compare the two with `==`
/// (it compares what they share), not `===`. Its ``fetchRequest`` is a copy of yours, taken again at each
/// ``performFetch()``. A controller made as `FetchedResultsController<any FetchRequestResult>` hands itself.
///
/// Use a controller on its context's queue, as the context.
open class FetchedResultsController<Result: FetchRequestResult> {
    /// The request the controller fetches with. Change its predicate or sort descriptors only before a new
    /// ``performFetch()`` (see the discussion above).
    public let fetchRequest: FetchRequest<Result>
    /// The context the controller fetches from and follows.
    public let managedObjectContext: ManagedObjectContext
    /// The key path (through to-one relationships) whose value names each object's section; nil for one section.
    public let sectionNameKeyPath: String?
    /// The name of Core Data's section cache: kept as given, with no file behind it, and holding the request to the
    /// rule Core Data's cache imposes.
    ///
    /// Core Data writes the sections it computed to a file under this name and reads them back at the next
    /// ``performFetch()`` when the entity, its version hash, the sort keys, the section key path and the store
    /// files' modification dates all still match — saving the pass that names each object's section, at the price
    /// of the checks and a file to keep in step. Persistence keeps no such file: it names the sections in one pass
    /// over the fetched objects, which costs little next to reading their rows (measured on 100,000 rows in 26
    /// sections, ``performFetch()`` took about as long as the fetch alone).
    ///
    /// The rule stays: a controller with a cache name whose request's predicate or sort descriptors changed since its
    /// last ``performFetch()`` needs ``deleteCache(withName:)`` first, as Apple's documentation says ("if you are
    /// using a cache, delete it"). Core Data raises `NSInternalInconsistencyException` there (developers report "You
    /// have illegally mutated the NSFetchedResultsController's fetch request…"); ``performFetch()`` throws it here.
    /// A controller whose request changes is better made without a cache name, as Apple advises.
    public let cacheName: String?
    let tracker: FetchedResultsTracker
    /// For a typed controller: the type-erased one handed to the delegate, made on first need.
    private var erased: FetchedResultsController<any FetchRequestResult>?
    /// `true` for the type-erased controller a typed one hands its delegate.
    private let isDelegateView: Bool
    /// With a cache name: the request's predicate and sort descriptors at the last fetch, and the cache's deletion
    /// count then (see ``cacheName``).
    private var cachedShape: (shape: String, deletions: Int)?

    /// A controller for `fetchRequest` in `context`, its objects split into sections by `sectionNameKeyPath` (nil
    /// for one section); `name` is Core Data's cache name, with no file behind it (see ``cacheName``). Nothing is
    /// fetched until ``performFetch()``.
    ///
    /// The request must have sort descriptors. Core Data raises `NSInvalidArgumentException` here ("An instance of
    /// NSFetchedResultsController requires a fetch request with sort descriptors"); an initializer that cannot
    /// throw cannot report it, so ``performFetch()`` throws it instead, every time.
    public init(fetchRequest: FetchRequest<Result>, managedObjectContext context: ManagedObjectContext,
                sectionNameKeyPath: String?, cacheName name: String?) {
        self.fetchRequest = fetchRequest
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        cacheName = name
        isDelegateView = false
        tracker = FetchedResultsTracker(
            context: context, sectionNameKeyPath: sectionNameKeyPath,
            controllerName: "FetchedResultsController<\(resultTypeName(Result.self))>",
            settings: { [fetchRequest] in
                .init(entityName: fetchRequest.requestedEntityName, entity: fetchRequest.entity,
                      predicate: fetchRequest.predicate, sortDescriptors: fetchRequest.sortDescriptors ?? [],
                      includesSubentities: fetchRequest.includesSubentities, resultType: fetchRequest.resultType)
            },
            fetch: { [fetchRequest, unowned context] in
                let results = try context.fetch(fetchRequest)
                // A class `Result` has the objects' own representation; anything else (a protocol) is converted.
                if Result.self is ManagedObject.Type { return unsafeBitCast(results, to: [ManagedObject].self) }
                return results.compactMap { $0 as? ManagedObject }
            },
            accepts: { $0 is Result })
        tracker.ownTitle = { [weak self] name in
            self?.sectionIndexTitle(forSectionName: name) ?? FetchedResultsTracker.capitalizedFirstLetter(name)
        }
        tracker.delegateView = { [weak self] in self?.delegateView }
    }

    /// The type-erased controller a typed one hands its delegate.
    private init(delegateViewOf tracker: FetchedResultsTracker, request: FetchRequest<Result>,
                 context: ManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?) {
        self.tracker = tracker
        fetchRequest = request
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        isDelegateView = true
    }

    deinit {
        // The delegate's view shares the tracker; without the app's controller there is no one to track for.
        if !isDelegateView { tracker.delegate = nil }
    }

    /// The controller the delegate is handed: this one when it is already type-erased, otherwise its shared view.
    private var delegateView: FetchedResultsController<any FetchRequestResult> {
        if let erasedSelf = self as? FetchedResultsController<any FetchRequestResult> { return erasedSelf }
        if let erased { return erased }
        let request = FetchRequest<any FetchRequestResult>(entityName: fetchRequest.requestedEntityName)
        request.adoptSettings(of: fetchRequest)
        let view = FetchedResultsController<any FetchRequestResult>(
            delegateViewOf: tracker, request: request, context: managedObjectContext,
            sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName)
        erased = view
        return view
    }

    /// The object told about changes to the results (held weakly, as Core Data holds it). Setting one starts
    /// tracking changes; nil stops. The first batch after setting one finds out which form the delegate takes, and
    /// stops tracking when it implements no change-tracking method (see ``FetchedResultsControllerDelegate``).
    public var delegate: (any FetchedResultsControllerDelegate)? {
        get { tracker.delegate }
        set { tracker.delegate = newValue }
    }

    /// Runs the request and splits its objects into sections; a delegate that takes snapshots is handed one at once
    /// (as Core Data does). Call it again after changing the request.
    ///
    /// - Throws: error 134060 "An instance of FetchedResultsController<…> requires a fetch request
    ///   with sort descriptors" when the request has none (Core Data raises this from its initializer, see
    ///   ``init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)``); 134060 "The fetched object at
    ///   index *n* has an out of order section name '*name*'. Objects must be sorted by section name" — Core Data's
    ///   error, which names the section the misplaced object turns up in — when a section's objects are not
    ///   together because the first sort descriptor does not order them as the section key path does (a sort that
    ///   disagrees but happens to keep every section together passes, as in Core Data); 134060 for a request whose
    ///   result type is not
    ///   ``FetchRequestResultType/managedObjectResultType``; 134060 naming the entity and the section name key
    ///   path when a key of it is neither a property of the entity nor answered by its class in
    ///   ``ManagedObject/value(forUndefinedKey:)`` — Core Data raises `NSUnknownKeyException` as it names the
    ///   sections; Persistence throws before fetching when no object could answer the key, and otherwise at the
    ///   first object that does not — and, stricter than Core Data, when the path goes through a to-many
    ///   relationship or past an attribute (Persistence follows a key path through to-one relationships and
    ///   answered objects only); and whatever the fetch throws. After an error the
    ///   controller has no results (``fetchedObjects`` and ``sections`` are nil), as in Core Data.
    public func performFetch() throws {
        let shape = cacheName.map { name in
            (shape: "\(fetchRequest.predicate?.predicateFormat ?? "nil") | \(fetchRequest.sortDescriptors ?? [])",
             deletions: FetchedResultsCacheNames.shared.deletionCount(of: name))
        }
        if let shape, let cacheName, let cachedShape, cachedShape.shape != shape.shape,
           cachedShape.deletions == shape.deletions {
            throw PersistenceError(.coreData, """
                \(tracker.controllerName) has the cache name '\(cacheName)', and its fetch request's predicate or sort \
                descriptors changed since its last performFetch() (\(cachedShape.shape) → \(shape.shape)) without \
                deleteCache(withName: "\(cacheName)"). Core Data raises NSInternalInconsistencyException here. Delete \
                the cache before changing the request, or give a controller whose request changes no cache name.
                """)
        }
        if let erased, !isDelegateView { erased.fetchRequest.adoptSettings(of: fetchRequest) }
        try tracker.performFetch()
        cachedShape = shape
    }

    /// The fetched objects, section after section; nil before ``performFetch()``. Open, as Core Data's is to Swift.
    open var fetchedObjects: [Result]? {
        guard let objects = tracker.fetchedObjects else { return nil }
        // A class `Result` has the objects' own representation (every object tracked is an instance of it).
        if Result.self is ManagedObject.Type { return unsafeBitCast(objects, to: [Result].self) }
        return objects.map { $0 as! Result }
    }

    /// The sections, in order; nil before ``performFetch()``. Without a section key path there is always one
    /// (named `""`, possibly empty); with one, a section per section name that has objects. Open, as Core Data's is
    /// to Swift.
    open var sections: [any FetchedResultsSectionInfo]? {
        tracker.sections
    }

    /// The object at `indexPath` (section, then row). An index path outside the results stops the program, with
    /// Core Data's message ("no object at index 3 in section at index 0"), as Core Data's does where it raises.
    public func object(at indexPath: IndexPath) -> Result {
        tracker.object(at: indexPath) as! Result
    }

    /// Where `object` is in the results: its section and row; nil when it is not one of them (or before
    /// ``performFetch()``).
    public func indexPath(forObject object: Result) -> IndexPath? {
        guard let managed = object as? ManagedObject else { return nil }
        return tracker.indexPath(of: managed)
    }

    /// The section index: each section's ``FetchedResultsSectionInfo/indexTitle``, in order, without repeating a
    /// title the section before has (sections "Apple" and "Avocado" give one "A"), as Core Data builds it; empty
    /// without a section key path. Override it for another index (then override
    /// ``section(forSectionIndexTitle:at:)`` to match).
    open var sectionIndexTitles: [String] {
        tracker.indexTitles.titles
    }

    /// The index title of a section named `sectionName`: its first character, capitalized, as Core Data's default
    /// ("apple" → "A"); nil for the unnamed section. A delegate's
    /// ``FetchedResultsControllerDelegate/controller(_:sectionIndexTitleForSectionName:)`` takes precedence. Override
    /// it for another rule.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        FetchedResultsTracker.capitalizedFirstLetter(sectionName)
    }

    /// The section to show for entry `sectionIndex` of the section index, whose title is `title` — for
    /// `tableView(_:sectionForSectionIndexTitle:at:)`. As Core Data, it checks that entry `sectionIndex` of
    /// ``sectionIndexTitles`` is `title` and returns the first section with that title; an index outside the
    /// titles or a title that is not there stops the program with Core Data's message ("invalid Section Index
    /// offset", "Index title at … is not equal to …"), where Core Data raises.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let titles = sectionIndexTitles
        precondition(sectionIndex >= 0 && sectionIndex < titles.count,
                     "\(tracker.controllerName): invalid Section Index offset\(sectionIndex)")
        precondition(titles[sectionIndex] == title,
                     "\(tracker.controllerName): Index title at \(sectionIndex) is not equal to '\(title)'")
        let index = tracker.indexTitles
        return sectionIndex < index.sections.count ? index.sections[sectionIndex] : sectionIndex
    }

    /// Deletes the section cache named `name` (every cache for nil). Persistence keeps no file (see ``cacheName``);
    /// what this does is let a controller with that cache name fetch with a changed request.
    open class func deleteCache(withName name: String?) {
        FetchedResultsCacheNames.shared.delete(name)
    }

    /// `true` when the two are the same controller: the one an app made and the type-erased one its delegate is
    /// handed compare equal (they share their results), whatever their `Result` types.
    public static func == <Other: FetchRequestResult>(lhs: FetchedResultsController<Result>, rhs: FetchedResultsController<Other>) -> Bool {
        lhs.tracker === rhs.tracker
    }

    /// `true` when the two are different controllers (see `==`).
    public static func != <Other: FetchRequestResult>(lhs: FetchedResultsController<Result>, rhs: FetchedResultsController<Other>) -> Bool {
        lhs.tracker !== rhs.tracker
    }
}
