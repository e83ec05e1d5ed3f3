import Foundation

/// The work of a ``FetchedResultsController``: the fetch, the sections, and keeping them up with the context. It is
/// not generic, so the controller an app makes (`FetchedResultsController<Movie>`) and the type-erased one its
/// delegate is handed (`FetchedResultsController<any FetchRequestResult>`) share one.
///
/// Used on the context's queue, like the context: the fetch runs in its `performAndWait`, and changes arrive with
/// the context's did-change notifications, which are posted there.
final class FetchedResultsTracker {
    /// What the request says when it is read: at each fetch, and at each batch of changes (Core Data reads the
    /// request's predicate and sort descriptors again when it processes changes, so a request changed without a
    /// new fetch judges the next changes by its new rules while the rows already there stay).
    struct RequestSettings {
        var entityName: String
        var entity: EntityDescription?
        var predicate: FetchPredicate?
        var sortDescriptors: [FetchSortDescriptor]
        var includesSubentities: Bool
        var resultType: FetchRequestResultType
    }

    /// The delegate's change-tracking methods, which a delegate may lack: the two ways of telling everything at once,
    /// and the four of telling row by row.
    enum DelegateForm {
        case snapshot, difference
        case willChange, objectChange, sectionChange, didChange
    }

    let context: ManagedObjectContext
    /// The section key path, split at its dots; nil for one section.
    let sectionKeyPath: [String]?
    /// The controller's type as the messages name it: `FetchedResultsController<Movie>`.
    let controllerName: String
    let settings: () -> RequestSettings
    private let fetch: () throws -> [ManagedObject]
    /// Whether an object may be one of the results: an instance of the controller's `Result`.
    let accepts: (ManagedObject) -> Bool
    /// Core Data raises in `init` when the request has no sort descriptors; `init` cannot throw here, so
    /// ``performFetch()`` throws this.
    private let initError: PersistenceError?
    /// The controller's ``FetchedResultsController/sectionIndexTitle(forSectionName:)``, which a subclass may override.
    var ownTitle: (String) -> String? = FetchedResultsTracker.capitalizedFirstLetter
    /// The controller to hand the delegate (nil once the app's controller is gone).
    var delegateView: () -> FetchedResultsController<any FetchRequestResult>? = { nil }

    /// The sections; nil before a fetch succeeds (and after one fails).
    private(set) var sections: [FetchedResultsSection]?
    /// The entity fetched, found at the fetch.
    private(set) var entity: EntityDescription?
    private var cachedObjects: [ManagedObject]?
    private var cachedPaths: [ObjectIdentifier: IndexPath]?
    private var cachedIndexTitles: (titles: [String], sections: [Int])?

    /// Held weakly, as Core Data holds its delegate. Setting one starts tracking changes; nil stops.
    weak var delegate: (any FetchedResultsControllerDelegate)? {
        didSet {
            guard delegate !== oldValue else { return }
            lacks = []
            tracksChanges = false
            if delegate == nil { stopObserving() } else { startObserving() }
        }
    }
    /// The forms the delegate was found to lack (its default implementation was called).
    private(set) var lacks: Set<DelegateForm> = []
    /// `true` once one of the delegate's change-tracking methods turned out to be its own: Core Data tracks changes
    /// only for a delegate that implements at least one (see ``FetchedResultsTracker/deliver(_:replacing:to:)``).
    var tracksChanges = false
    /// For a delegate that may take differences: the object IDs of the results as it was last told them, so that
    /// IDs a save makes permanent can be told too (see `contextDidSave()`).
    var reportedIDs: [ManagedObjectID]?
    private var observations: [any NSObjectProtocol] = []

    init(context: ManagedObjectContext, sectionNameKeyPath: String?, controllerName: String,
         settings: @escaping () -> RequestSettings, fetch: @escaping () throws -> [ManagedObject],
         accepts: @escaping (ManagedObject) -> Bool) {
        self.context = context
        self.sectionKeyPath = sectionNameKeyPath.map { $0.split(separator: ".").map(String.init) }
        self.controllerName = controllerName
        self.settings = settings
        self.fetch = fetch
        self.accepts = accepts
        initError = settings().sortDescriptors.isEmpty ? Self.noSortDescriptorsError(controllerName) : nil
    }

    deinit {
        stopObserving()
    }

    // MARK: - Fetching

    /// Runs the request and splits its objects into sections; see ``FetchedResultsController/performFetch()``.
    func performFetch() throws {
        // On the context's queue, as Core Data runs it (and the delegate hears of it there, as of any change).
        try context.performAndWait {
            do {
                try fetchAndSection()
            } catch {
                // As Core Data: a failed fetch leaves no results.
                replace(with: nil)
                throw error
            }
            if let delegate, !lacks.contains(.snapshot), let view = delegateView() {
                // Core Data hands a snapshot delegate the fetched sections at once.
                delegate.controller(view, didChangeContentWith: snapshot())
                if !lacks.contains(.snapshot) { tracksChanges = true }
            }
            rememberReportedIDs()
        }
    }

    private func fetchAndSection() throws {
        if let initError { throw initError }
        let settings = settings()
        guard !settings.sortDescriptors.isEmpty else { throw Self.noSortDescriptorsError(controllerName) }
        guard settings.resultType == .managedObjectResultType else {
            throw PersistenceError(.coreData,
                                   "\(controllerName) tracks managed objects: its request's resultType must be .managedObjectResultType, not \(settings.resultType). (Core Data refuses dictionary results with change tracking; Persistence supports objects only.)",
                                   entityName: settings.entityName)
        }
        let fetchedEntity = settings.entity ?? context.model?.entitiesByName[settings.entityName]
        // Before the fetch: a key path no object can answer fails on an empty store too.
        if let fetchedEntity {
            try checkSectionKeyPath(for: fetchedEntity, includesSubentities: settings.includesSubentities)
        }
        let objects = try fetch()
        entity = fetchedEntity
        replace(with: try sections(of: objects))
    }

    /// The objects split into sections by the section key path, in their order. Throws Core Data's 134060 when a
    /// section's objects are not together — the request does not sort by the section key first — and when an
    /// object cannot answer the key path (see ``sectionName(of:keyPath:)``).
    private func sections(of objects: [ManagedObject]) throws -> [FetchedResultsSection] {
        guard let keyPath = sectionKeyPath else {
            return [FetchedResultsSection(name: "", indexTitle: nil, rows: objects)]
        }
        var sections: [FetchedResultsSection] = []
        var finished = Set<String>()
        var current: (name: String, start: Int)?
        for (index, object) in objects.enumerated() {
            let name = try sectionName(of: object, keyPath: keyPath)
            if let open = current {
                if open.name == name { continue }
                guard !finished.contains(name) else {
                    // Core Data's words: it names the section the misplaced object turns up in, not its own.
                    throw PersistenceError(.coreData,
                                           "The fetched object at index \(index) has an out of order section name '\(open.name)'. Objects must be sorted by section name",
                                           object: object)
                }
                finished.insert(open.name)
                sections.append(makeSection(open.name, rows: Array(objects[open.start..<index])))
            }
            current = (name, index)
        }
        if let open = current { sections.append(makeSection(open.name, rows: Array(objects[open.start...]))) }
        return sections
    }

    func makeSection(_ name: String, rows: [ManagedObject]) -> FetchedResultsSection {
        FetchedResultsSection(name: name, indexTitle: indexTitle(forSectionName: name), rows: rows)
    }

    /// The title a new section gets: the delegate's, or the controller's own.
    private func indexTitle(forSectionName name: String) -> String? {
        guard sectionKeyPath != nil else { return nil }
        if let delegate, let view = delegateView() {
            return delegate.controller(view, sectionIndexTitleForSectionName: name)
        }
        return ownTitle(name)
    }

    static func noSortDescriptorsError(_ controllerName: String) -> PersistenceError {
        // Core Data raises NSInvalidArgumentException with this reason from init.
        PersistenceError(.coreData, "An instance of \(controllerName) requires a fetch request with sort descriptors")
    }

    /// Core Data's default index title: the section name's first character in upper case; nil for an empty name.
    static func capitalizedFirstLetter(_ sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    /// The controller's own title for the delegate's default implementation.
    func ownIndexTitle(forSectionName sectionName: String) -> String? {
        ownTitle(sectionName)
    }

    /// Sets the sections (the first time, after a fetch, after a batch of changes — or back, when a delegate turned
    /// out to lack the form it was offered) and forgets what was worked out from the old ones.
    func replace(with sections: [FetchedResultsSection]?) {
        self.sections = sections
        cachedObjects = nil
        cachedPaths = nil
        cachedIndexTitles = nil
    }

    // MARK: - Reading the results

    /// Every object, section after section; nil before a fetch.
    var fetchedObjects: [ManagedObject]? {
        guard let sections else { return nil }
        if let cachedObjects { return cachedObjects }
        let objects = sections.count == 1 ? sections[0].rows : sections.flatMap(\.rows)
        cachedObjects = objects
        return objects
    }

    /// The object at `indexPath` (section, row). A path outside the results stops the program with Core Data's
    /// message, as an array index out of range does.
    func object(at indexPath: IndexPath) -> ManagedObject {
        guard let sections else {
            preconditionFailure("\(controllerName): cannot access fetched objects before -performFetch:")
        }
        precondition(indexPath.count == 2, "\(controllerName).object(at:): \(indexPath) is not a section and a row")
        let (section, row) = (indexPath[0], indexPath[1])
        guard sections.indices.contains(section) else {
            preconditionFailure("\(controllerName): no section at index \(section)")
        }
        guard sections[section].rows.indices.contains(row) else {
            preconditionFailure("\(controllerName): no object at index \(row) in section at index \(section)")
        }
        return sections[section].rows[row]
    }

    /// Where `object` is, if it is one of the results (a table of every object's place, made on first use after
    /// each change).
    func indexPath(of object: ManagedObject) -> IndexPath? {
        guard let sections else { return nil }
        if cachedPaths == nil {
            var paths: [ObjectIdentifier: IndexPath] = [:]
            paths.reserveCapacity(sections.reduce(0) { $0 + $1.rows.count })
            for (sectionIndex, section) in sections.enumerated() {
                for (row, object) in section.rows.enumerated() {
                    paths[ObjectIdentifier(object)] = IndexPath(indexes: [sectionIndex, row])
                }
            }
            cachedPaths = paths
        }
        return cachedPaths?[ObjectIdentifier(object)]
    }

    /// Core Data's section index: the sections' titles in order, leaving out a title equal to the one before
    /// (sections "Apple" and "Avocado" give one "A") and sections without one; empty without a section key path.
    var indexTitles: (titles: [String], sections: [Int]) {
        if let cachedIndexTitles { return cachedIndexTitles }
        var titles: [String] = []
        var sectionNumbers: [Int] = []
        if sectionKeyPath != nil {
            for (index, section) in (sections ?? []).enumerated() {
                guard let title = section.indexTitle, title != titles.last else { continue }
                titles.append(title)
                sectionNumbers.append(index)
            }
        }
        cachedIndexTitles = (titles, sectionNumbers)
        return (titles, sectionNumbers)
    }

    // MARK: - Tracking changes

    /// Records that the delegate lacks `form` (its default implementation ran).
    func delegateLacks(_ form: DelegateForm) {
        lacks.insert(form)
        if form == .difference { reportedIDs = nil }
    }

    /// Keeps the results' IDs for a delegate that may take differences (see ``reportedIDs``).
    func rememberReportedIDs() {
        guard delegate != nil, sectionKeyPath == nil, !lacks.contains(.difference), let objects = fetchedObjects else {
            reportedIDs = nil
            return
        }
        reportedIDs = objects.map(\.objectID)
    }

    private func startObserving() {
        guard observations.isEmpty else { return }
        let tracker = WeakTracker(self)
        for name in [ManagedObjectContext.didChangeObjectsNotification,
                     ManagedObjectContext.mergedUnregisteredUpdatesNotification] {
            observations.append(NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { note in
                tracker.tracker?.contextDidChange(note)
            })
        }
        observations.append(NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                                   object: context, queue: nil) { _ in
            tracker.tracker?.contextDidSave()
        })
    }

    func stopObserving() {
        for observation in observations { NotificationCenter.default.removeObserver(observation) }
        observations = []
    }

    /// A did-change notification of the context: its objects sorted into gone and changed, and the batch they make
    /// told to the delegate.
    private func contextDidChange(_ note: Notification) {
        guard let current = sections else { return }
        guard let delegate else {
            // The delegate went away: no one to tell, so nothing to track (Core Data clears its delegate too).
            stopObserving()
            return
        }
        let info = note.userInfo ?? [:]
        // Apple: when all objects are invalidated (a reset), the controller neither invalidates its objects nor
        // reports deletions; call performFetch() again.
        guard info[ManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue] == nil else { return }
        func objects(_ key: ManagedObjectContext.NotificationKey) -> Set<ManagedObject> {
            info[key.rawValue] as? Set<ManagedObject> ?? []
        }
        var changes = FetchedResultsTracker.ContextChanges()
        // Apple: invalidated objects are treated as deleted.
        changes.gone = Array(objects(.deletedObjects).union(objects(.invalidatedObjects)))
        changes.changed = Array(objects(.insertedObjects).union(objects(.updatedObjects)).union(objects(.refreshedObjects)))
        changes.changed += mergedUpdatesNotRegistered()
        guard let batch = batch(for: changes, replacing: current) else { return }
        deliver(batch, replacing: current, to: delegate)
    }

    /// A save of the context gave its new objects permanent IDs. A delegate that takes differences knows the
    /// objects by ID, so — as Core Data does — it is sent a difference that replaces each old ID with the new one at
    /// the same offset. (Other forms know the objects, or get whole snapshots.)
    private func contextDidSave() {
        guard let delegate, let reported = reportedIDs, let objects = fetchedObjects, objects.count == reported.count,
              let view = delegateView() else { return }
        var changes: [CollectionDifference<ManagedObjectID>.Change] = []
        for (offset, object) in objects.enumerated() where object.objectID != reported[offset] {
            changes.append(.remove(offset: offset, element: reported[offset], associatedWith: offset))
            changes.append(.insert(offset: offset, element: object.objectID, associatedWith: offset))
        }
        guard !changes.isEmpty, let difference = CollectionDifference(changes) else { return }
        reportedIDs = objects.map(\.objectID)
        delegate.controller(view, didChangeContentWith: difference)
        if lacks.contains(.difference) { reportedIDs = nil }
    }

    /// Objects another context saved changes to that this context had not registered, during a merge: a merge
    /// refreshes only the objects it holds, but one it does not hold may now match the request (Core Data's
    /// controller reads the merge's updated object IDs for the same reason). They are made here, as faults.
    private func mergedUpdatesNotRegistered() -> [ManagedObject] {
        guard let ids = context.mergedUpdateIDs, let entity else { return [] }
        let includesSubentities = settings().includesSubentities
        var objects: [ManagedObject] = []
        for id in ids where context.registeredObject(forID: id) == nil {
            guard let idEntity = context.model?.entitiesByName[id.entityName],
                  idEntity.matches(entity, includingSubentities: includesSubentities) else { continue }
            objects.append(context.object(with: id))
        }
        return objects
    }
}

/// A tracker held weakly by its notification observer, which must be `Sendable`.
private final class WeakTracker: @unchecked Sendable {
    weak var tracker: FetchedResultsTracker?

    init(_ tracker: FetchedResultsTracker) {
        self.tracker = tracker
    }
}
