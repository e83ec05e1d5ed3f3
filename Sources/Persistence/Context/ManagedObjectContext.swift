import Foundation

/// A scratchpad of managed objects: insert, change and delete them, then ``save()`` to write everything to the
/// store at once (or ``rollback()`` to forget it).
///
/// A context belongs to one queue. A `.mainQueue` context (the container's `viewContext`) is used on the main
/// thread; a `.privateQueue` context owns a serial queue, and every use of it and of its objects goes through
/// ``perform(_:)`` or ``performAndWait(_:)``. Between contexts, pass ``ManagedObjectID``s, never objects.
///
/// Made as in Core Data, either way: `ManagedObjectContext(.privateQueue)` (the Swift form, iOS 15 and later) or
/// `ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)` (the older one).
public final class ManagedObjectContext: @unchecked Sendable, CustomStringConvertible {
    /// Which queue a context runs on, for ``init(_:)``: Core Data's `NSManagedObjectContext.ConcurrencyType`.
    public struct ConcurrencyType: Sendable {
        /// The main queue; use it from the main thread.
        public static let mainQueue = ConcurrencyType(kind: .mainQueueConcurrencyType)
        /// A private serial queue of its own.
        public static let privateQueue = ConcurrencyType(kind: .privateQueueConcurrencyType)

        let kind: ManagedObjectContextConcurrencyType
    }

    /// The queue the context works on, chosen when it is made.
    public let concurrencyType: ManagedObjectContextConcurrencyType
    /// The coordinator this context reads from and saves to.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        didSet { model = persistentStoreCoordinator?.managedObjectModel }
    }
    /// A name for debugging output, recorded in persistent history as each transaction's
    /// ``PersistentHistoryTransaction/contextName``.
    public var name: String?
    /// Who this context's saves and batch requests are by, recorded in persistent history as each transaction's
    /// ``PersistentHistoryTransaction/author`` (Core Data's `transactionAuthor`): set it ("app", "importer",
    /// "widget") and a reader of the history can skip its own transactions. It stays set for every later save.
    public var transactionAuthor: String?
    /// Whatever the app wants to keep with the context (Core Data's `userInfo`, a mutable dictionary shared by
    /// reference). Persistence never reads or writes it. Use it on the context's queue, like the context.
    public let userInfo = NSMutableDictionary()
    /// The context this one saves into and reads through (a child context), or `nil` for a context on the store.
    /// Set it before using the context; the child uses its parent's coordinator.
    public var parent: ManagedObjectContext? {
        didSet { persistentStoreCoordinator = parent?.persistentStoreCoordinator }
    }
    /// Children that merge this context's saves automatically.
    let mergingChildren = ContextList()
    /// How a save resolves conflicts with changes other contexts made to the store (``MergePolicy/error`` by
    /// default: the save fails and says which objects conflict).
    ///
    /// Typed `Any`, as in Core Data: set a ``MergePolicy`` — `MergePolicy.mergeByPropertyObjectTrump`, a subclass
    /// of your own — or one of Core Data's constants (`NSMergeByPropertyObjectTrumpMergePolicy`…), and read it back
    /// with `as? MergePolicy`. Anything else makes the next save fail with a message saying so (Core Data does not
    /// document what it does with such a value; this is the stricter reading).
    public var mergePolicy: Any {
        get { resolvedMergePolicy }
        set {
            if let policy = newValue as? MergePolicy {
                resolvedMergePolicy = policy
                refusedMergePolicy = nil
            } else {
                refusedMergePolicy = String(describing: type(of: newValue))
            }
        }
    }
    /// The policy saves and batch inserts use: the last ``mergePolicy`` that was a merge policy.
    private(set) var resolvedMergePolicy = MergePolicy.error
    /// The type of a ``mergePolicy`` set that was no merge policy, which the next save reports; nil when none was.
    private(set) var refusedMergePolicy: String?
    /// When `true`, the parent's saves are merged into this context automatically, on its queue. For a context on
    /// the store, the "parent" is the store: saves of the other contexts on the same coordinator are merged.
    ///
    /// Not with a context pinned to a query generation token from another context: Apple's header calls that "not
    /// supported", so the pairing is recorded as a mistake that the next ``save()`` throws. A context pinned with
    /// ``QueryGenerationToken/current`` may merge automatically; each merge moves it to the newest data.
    public var automaticallyMergesChangesFromParent = false {
        didSet {
            guard automaticallyMergesChangesFromParent != oldValue else { return }
            recordMergingWhilePinned()
            if let parent {
                parent.mergingChildren.set(automaticallyMergesChangesFromParent, for: self)
            } else {
                persistentStoreCoordinator?.mergingContexts.set(automaticallyMergesChangesFromParent, for: self)
            }
        }
    }
    /// When `true`, the context keeps a strong reference to every object registered in it; when `false` (the
    /// default, as in Core Data), only to objects with unsaved changes — inserted, updated or deleted — until they
    /// are saved or rolled back. An object without changes that nothing else holds (your variables, an array of
    /// fetch results, another object's relationship, a fetched results controller) then goes away: it leaves
    /// ``registeredObjects``, ``registeredObject(for:)`` returns nil for its ID and ``object(with:)`` makes a new
    /// fault. Relationships hold their objects strongly, so two objects that reach each other keep each other
    /// registered until one is turned into a fault (``refresh(_:mergeChanges:)`` with `false`, ``reset()``).
    ///
    /// When an object nobody holds is freed is undocumented by Apple (its autorelease pool decides); Persistence
    /// takes the strict reading: it is gone as soon as anything asks (``registeredObjects``,
    /// ``registeredObject(for:)``, ``object(with:)``, ``existingObject(with:)``, a fetch, a merge). Its memory is
    /// given back where Core Data's autorelease pool would drain: at the end of a `perform` block or of the
    /// main-queue event, in ``processPendingChanges()``, and — `performAndWait` having no pool of its own — at the
    /// start of the next block.
    public var retainsRegisteredObjects = false {
        // Turned off: the next drain point looks at every object.
        didSet { if !retainsRegisteredObjects && oldValue { sweepCredit = Int.max / 2 } }
    }
    /// When a fault's row is gone from the store: `true` (Core Data's default) makes the object read as deleted
    /// with empty values instead of failing.
    public var shouldDeleteInaccessibleFaults = true

    let queue: DispatchQueue
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    // The object graph's bookkeeping is `@exclusivity(unchecked)`, like the objects' own state: it is touched only on
    // the context's queue, and run-time exclusivity checks on every insert and registration cost more than the work.
    @exclusivity(unchecked) var registry = ObjectRegistry()
    /// The places the sweeps at drain points looked at since the last full sweep (see `sweepAtDrainPoint()`).
    @exclusivity(unchecked) var sweepCredit = 0
    /// A sweep of this main-queue context waits on the main queue.
    @exclusivity(unchecked) var mainQueueSweepScheduled = false
    /// Rows for the packed values of the objects inserted here (see ``PackedRow/makeInitialUnretained(_:layout:in:)``).
    @exclusivity(unchecked) var newObjectRows = PackedRowAllocator()
    @exclusivity(unchecked) var inserted = ObjectList(.inserted)
    @exclusivity(unchecked) var updated = ObjectList(.updated)
    @exclusivity(unchecked) var deleted = ObjectList(.deleted)
    /// Mistakes made through API that cannot throw (a class missing from the model, relating objects of two
    /// contexts); the next save throws the first of them. Cleared by rollback and reset (see
    /// ManagedObjectContext+Misuse).
    var misuseErrors: [PersistenceError] = []
    private var unknownEntities: [ObjectIdentifier: EntityDescription] = [:]
    /// The changes since the last did-change notification that the change lists do not show (see
    /// ``NotedChanges``).
    @exclusivity(unchecked) var noted = NotedChanges()
    /// While a merge posts its did-change notification: the IDs of every object the merged save updated, registered
    /// here or not. A merge refreshes only the objects the context holds; an observer that must also see the others
    /// (a fetched results controller, for objects that now match its request) reads them here.
    @exclusivity(unchecked) var mergedUpdateIDs: Set<ManagedObjectID>?
    /// The continuations of `saves()` streams.
    let saveObservers = SaveObservers()
    /// Which snapshot of the store this context reads (see ``setQueryGenerationFrom(_:)``).
    var readGeneration = ReadGeneration.unpinned
    /// The store's maker of permanent IDs, taken on first use.
    var permanentIDs: PermanentIDs?
    /// While a save runs `willSave()`, the objects inserted, changed or deleted meanwhile (see
    /// `runWillSave()`); nil the rest of the time.
    @exclusivity(unchecked) var willSaveChanges: WillSaveChanges?
    /// The deleted objects whose ``ManagedObject/prepareForDeletion()`` has run, so that it runs once per deletion
    /// however often pending changes are processed (held strongly: an object leaving the list is not mistaken for
    /// a new one at its address). Emptied when the deletions are saved, rolled back or reset.
    @exclusivity(unchecked) var preparedDeletions = Set<ManagedObject>()
    /// The object whose default save validation is calling its ``ManagedObject/validateValue(_:forKey:)``, which
    /// then leaves the model's rules to that validation (checked once, in bulk); nil the rest of the time.
    @exclusivity(unchecked) unowned(unsafe) var validatingObject: ManagedObject?
    /// The object whose ``ManagedObject/setPrimitiveValue(_:forKey:)`` is writing a value, which records no change
    /// for it (Core Data's primitive setters issue no change notifications); nil the rest of the time.
    @exclusivity(unchecked) unowned(unsafe) var primitiveWriter: ManagedObject?

    /// A context on the main queue or a private queue of its own; give it a ``persistentStoreCoordinator`` or a
    /// ``parent`` before using it.
    public init(concurrencyType: ManagedObjectContextConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueueConcurrencyType:
            queue = .main
        case .privateQueueConcurrencyType:
            queue = DispatchQueue(label: "Persistence.ManagedObjectContext")
            queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        }
    }

    /// A context on the main queue or a private queue of its own (`.mainQueue`, `.privateQueue`): the same as
    /// ``init(concurrencyType:)``.
    public convenience init(_ type: ConcurrencyType) {
        self.init(concurrencyType: type.kind)
    }

    deinit {
        dropMisuse()
        // Related objects point at each other; clearing their values breaks the cycles.
        invalidateAll()
    }

    public var description: String {
        "<ManagedObjectContext \(name ?? String(describing: ObjectIdentifier(self))) \(concurrencyType)>"
    }

    /// The coordinator's model, kept at hand: objects ask for it on every registration.
    @exclusivity(unchecked) private(set) var model: ManagedObjectModel?
    /// The class last inserted and its entity: inserts come in runs of one class.
    @exclusivity(unchecked) private var lastInsertedClass: (type: ObjectIdentifier, entity: EntityDescription)?

    // MARK: - Queues

    /// `true` when the caller is running on this context's queue — or inside a `performAndWait` block of this
    /// context further up the same thread (child → parent → child nesting: inside the parent's block, Dispatch
    /// reports the parent's queue, yet the child's block is still running below it).
    var isOnQueue: Bool {
        switch concurrencyType {
        case .mainQueueConcurrencyType:
            if Thread.isMainThread { return true }
        case .privateQueueConcurrencyType:
            if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { return true }
        }
        return PerformingContexts.contains(self)
    }

    /// Runs `block` on the context's queue, later; returns at once.
    ///
    /// When the block ends, the context processes its pending changes (``processPendingChanges()``: delete rules
    /// applied, the did-change notification posted), as Core Data's `perform(_:)` documents, and the objects the
    /// block registered that nothing holds are let go of (see ``retainsRegisteredObjects``).
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { [weak self] in
            block()
            self?.processPendingChanges()           // which also sweeps: a drain point
        }
    }

    /// When an `async` ``perform(schedule:_:)`` runs its block.
    public enum ScheduledTaskType: Sendable {
        /// At once when already on the context's queue, otherwise as soon as the queue is free.
        case immediate
        /// Always after the work already waiting on the queue.
        case enqueued
    }

    /// Runs `block` on the context's queue and returns its result when it is done.
    ///
    /// It throws what `block` throws, and only that (Core Data's is `rethrows`): a block that cannot throw is
    /// awaited without `try` — `let count = await context.perform { context.registeredObjects.count }`.
    public func perform<T: Sendable, E: Error>(schedule: ScheduledTaskType = .immediate,
                                               _ block: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        if schedule == .immediate && isOnQueue { return try block() }
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async { [weak self] in
                let result = Result { () throws(E) -> T in try block() }
                self?.sweepAtDrainPoint()
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    /// Runs `block` on the context's queue and waits for it. Re-entrant: called from the queue itself, it runs
    /// `block` at once.
    ///
    /// Unlike ``perform(_:)``, it neither processes pending changes nor drains anything when the block ends, as
    /// Core Data documents an autorelease pool and ``processPendingChanges()`` for `perform(_:)` only. The objects a
    /// block registered that nothing holds are let go of at the start of the next block run on the queue, at the end
    /// of a `perform` block or in ``processPendingChanges()`` — and are never seen in the meantime (see
    /// ``retainsRegisteredObjects``).
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync {
            PerformingContexts.push(self)
            defer { PerformingContexts.pop() }
            sweepAtDrainPoint()
            return try block()
        }
    }

    // MARK: - State

    // The state below is the context's like everything else: read off its queue, the concurrency debugger
    // reports it (Apple documents no exception for these; the strict reading).

    /// `true` when there are inserted, updated or deleted objects not yet saved.
    public var hasChanges: Bool {
        checkQueue("hasChanges")
        return hasUnsavedObjects
    }
    /// ``hasChanges`` for the context's own work, which reports its own misuse by name.
    var hasUnsavedObjects: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }
    /// Objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> {
        checkQueue("insertedObjects")
        return Set(inserted.objects)
    }
    /// Saved objects changed since the last save.
    public var updatedObjects: Set<ManagedObject> {
        checkQueue("updatedObjects")
        return Set(updated.objects.filter { !$0.deletedFlag && $0.hasChanges })
    }
    /// Saved objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> {
        checkQueue("deletedObjects")
        return Set(deleted.objects.filter { !$0.objectID.isTemporaryID })
    }
    /// Every object this context knows (faults included): those with unsaved changes and those something still
    /// holds (all of them with ``retainsRegisteredObjects``).
    public var registeredObjects: Set<ManagedObject> {
        checkQueue("registeredObjects")
        dropUnreferencedObjects(recentOnly: false)
        return Set(registry.objects)
    }

    // MARK: - Inserting and deleting

    /// Inserts `object` (made with `insertInto: nil`) into this context.
    public func insert(_ object: ManagedObject) {
        checkQueue("insert(_:)")
        guard object.managedObjectContext == nil || object.managedObjectContext === self else {
            recordMisuse(PersistenceError(.coreData, "\(object.objectID) already belongs to another context; an object lives in one context only.", object: object))
            return
        }
        if object.deletedFlag, deleted.contains(object) {
            // Re-inserting a deleted object undoes the delete, as in Core Data; observers told of the deletion are
            // told it is back.
            object.deletedFlag = false
            if deleted.remove(object) { noted.noteReinserted(object) }
            // A later delete is a new deletion: it is prepared again.
            preparedDeletions.remove(object)
            willSaveChanges?.note(object)
            return
        }
        guard !object.insertedFlag else { return }
        guard !object.entity.isAbstract else {
            // Core Data raises here; the next save reports it instead, and the object stays out of the context.
            let concrete = object.entity.family.filter { !$0.isAbstract }.map(\.entityName)
            recordMisuse(PersistenceError(.coreData,
                                          "Cannot create an object of the abstract entity \(object.entity.entityName): an abstract entity has objects only through its subentities. " + (concrete.isEmpty ? "It has no concrete subentity; add one, or make \(object.entity.entityName) not abstract." : "Insert one of \(concrete.joined(separator: ", ")) instead."),
                                          entityName: object.entity.entityName))
            return
        }
        object.managedObjectContext = self
        object.insertedFlag = true
        register(object)
        inserted.append(object)
        object.awakeFromInsert()
        willSaveChanges?.note(object)
    }

    /// Marks `object` for deletion; its ``ManagedObject/prepareForDeletion()`` and then its delete rules run when the
    /// context processes pending changes or saves (for a deletion made in ``ManagedObject/willSave()``, before the
    /// save's next round of `willSave()`).
    public func delete(_ object: ManagedObject) {
        checkQueue("delete(_:)")
        guard object.managedObjectContext === self else {
            recordMisuse(PersistenceError(.coreData, "Cannot delete \(object.objectID): it belongs to another context.", object: object))
            return
        }
        guard !object.deletedFlag else { return }
        if object.faultState != .fired { object.fireFault() }
        object.deletedFlag = true
        if object.insertedFlag {
            // Never saved: it is forgotten at save (its delete rules still tidy the graph). Observers that never
            // heard of it hear nothing of its deletion either.
            object.insertedFlag = false
            if !inserted.remove(object) { noted.noteUnreportedDeletion(object) }
        }
        noted.forgetReinsertion(of: object)
        deleted.append(object)
        willSaveChanges?.note(object)
    }

    /// Called by an object the first time it changes after a save (or after a refresh or rollback dropped its
    /// changes).
    func objectDidChange(_ object: ManagedObject) {
        // Still in the list (joined before, perhaps reported): the next notification must tell of it all the same.
        if !object.insertedFlag && !updated.append(object) { noted.noteUpdated(object) }
    }

    /// The entity for a new object of `type`: the model's, or a stand-in that makes the next save fail.
    func entityForInsert(of type: ManagedObject.Type) -> EntityDescription {
        if let last = lastInsertedClass, last.type == ObjectIdentifier(type) { return last.entity }
        if let entity = model?.entity(for: type) {
            lastInsertedClass = (ObjectIdentifier(type), entity)
            return entity
        }
        if let entity = model?.entitiesByName[type.entityName], entity.managedObjectClass == ManagedObject.self || entity.managedObjectClass == type {
            return entity
        }
        let known = model?.entitiesListed ?? "It has no coordinator."
        recordMisuse(PersistenceError(.persistentStoreIncompatibleSchema,
                                      "\(type) is not the class of any entity in this context's model. \(known)",
                                      entityName: type.entityName))
        if let entity = unknownEntities[ObjectIdentifier(type)] { return entity }
        let entity = EntityDescription(name: type.entityName, properties: [])
        unknownEntities[ObjectIdentifier(type)] = entity
        return entity
    }

    // MARK: - Looking objects up

    /// The object this context has for `objectID`, if it has one; never reads the store. An object without changes
    /// that nothing holds is gone (see ``retainsRegisteredObjects``).
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        registeredObject(forID: objectID)
    }

    /// The object for `objectID`: the registered one, or a fault that reads its row when first used.
    /// Does not check that the row exists (use ``existingObject(with:)`` for that).
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        checkQueue("object(with:)")
        if let object = registeredObject(forID: objectID) { return object }
        guard let entity = model?.entitiesByName[objectID.entityName] else {
            // An ID from another model: a fault that reads as deleted.
            let object = ManagedObject(fetchedEntity: EntityDescription(name: objectID.entityName, properties: []), objectID: objectID, context: self)
            object.markInaccessible()
            register(object)
            return object
        }
        // Named in this model's entity: the ID may come from another context's model.
        let object = entity.managedObjectClass.init(fetchedEntity: entity, objectID: objectID.inScope(of: entity), context: self)
        register(object)
        return object
    }

    /// The object for `objectID`, its values read from the store if needed. Never a fault: as in Core Data, the
    /// object comes back filled (and `awakeFromFetch()` has run).
    /// - Throws: error 133000 when the object does not exist (deleted, or never saved).
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkQueue("existingObject(with:)")
        if let object = registeredObject(forID: objectID), object.faultState != .faultWithoutRow, !object.isInaccessible {
            // A fault holding its row only needs waking.
            object.fireFault()
            return object
        }
        if let state = parentState(of: objectID) {
            guard !state.isDeleted else {
                throw PersistenceError(.managedObjectReferentialIntegrity, "\(objectID) is deleted in the parent context.", objectID: objectID)
            }
            let object = self.object(with: objectID)
            object.fireFault()
            return object
        }
        guard !objectID.isTemporaryID, let entity = model?.entitiesByName[objectID.entityName],
              objectID.storeIdentifier == persistentStoreCoordinator?.storeIdentifier,
              let pk = objectID.primaryKey,
              let row = try withReadStore({ try $0.row(of: entity, primaryKey: pk) })
        else {
            throw PersistenceError(.managedObjectReferentialIntegrity,
                                   "No object exists for \(objectID): it was deleted, never saved, or belongs to another store.",
                                   objectID: objectID)
        }
        let object = registeredObject(forID: objectID)
            ?? entity.managedObjectClass.init(fetchedEntity: entity, objectID: objectID.inScope(of: entity), context: self)
        register(object)
        if object.faultState == .faultWithoutRow { object.adopt(row, asFault: false) }
        return object
    }

    /// Gives inserted objects permanent IDs now (they stay inserted). Useful before handing their IDs to
    /// another context.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue("obtainPermanentIDs(for:)")
        let pending = objects.filter { $0.objectID.isTemporaryID && $0.managedObjectContext === self }
        guard !pending.isEmpty, let coordinator = persistentStoreCoordinator else { return }
        let groups = Array(Dictionary(grouping: pending, by: { ObjectIdentifier($0.entity) }).values)
        let ids = try coordinator.withStore {
            try $0.reservePermanentIDs(for: groups.map { $0[0].entity }, counts: groups.map(\.count))
        }
        for (group, ids) in zip(groups, ids) {
            for (object, id) in zip(group, ids) { assignPermanentID(to: object, id) }
        }
    }

    func assignPermanentID(to object: ManagedObject, _ id: ManagedObjectID) {
        unregister(object)
        object.objectID = id
        register(object)
    }
}

/// Contexts held weakly, guarded by a lock (children register from their own queues).
final class ContextList: @unchecked Sendable {
    private struct Entry {
        weak var context: ManagedObjectContext?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func set(_ present: Bool, for context: ManagedObjectContext) {
        lock.withLock {
            entries.removeAll { $0.context == nil || $0.context === context }
            if present { entries.append(Entry(context: context)) }
        }
    }

    var contexts: [ManagedObjectContext] { lock.withLock { entries.compactMap(\.context) } }
}
