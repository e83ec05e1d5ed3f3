import Foundation

/// An object of the graph: one row of one entity, living in one context.
///
/// Subclass it and declare the entity's properties with ``Managed``:
///
/// ```swift
/// final class Movie: ManagedObject {
///     @Managed var title: String
///     @Managed var year: Int
///     @Managed var rating: NSNumber?   // an optional number: Double? does not compile
///     @Managed var director: Director?
///     @Managed var actors: Set<Actor>
/// }
/// let movie = Movie(context: context)   // inserts a new movie
/// ```
///
/// An object belongs to the context that made or fetched it and may be used only on that context's queue, and
/// only while that context exists (when a context goes away, its objects are emptied). To hand an object to another
/// context, pass its ``objectID``.
///
/// A non-optional number or Boolean property reads 0 or `false` while the attribute is nil, as Core Data's scalar
/// accessors do (the nil is still what gets validated: a save fails with code 1570 until you set it). Reading nil
/// through any other non-optional property (`String`, `Date`…) stops the program: Core Data documents nothing for
/// it, and on a device a non-optional `Date` over nil is reported to crash — declare such a property optional, as
/// Xcode does. A number or Boolean cannot be optional (`Int?` does not compile, as with `@NSManaged`): declare an
/// optional one `NSNumber?`.
open class ManagedObject: CustomStringConvertible {
    // The mutable state below is `@exclusivity(unchecked)`: an object is used on its context's queue only, so
    // Swift's run-time exclusivity checks would never find a conflict here, yet cost more than the work itself on
    // every property access.

    /// The entity of this object.
    public let entity: EntityDescription
    /// This object's identity: temporary until saved, then permanent.
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID
    /// The context this object lives in; `nil` once it has been deleted and saved, or was never inserted.
    ///
    /// Not a strong reference (the context owns its objects), and not `weak` (that costs a side allocation per
    /// object): every way an object leaves a context clears this first (see `invalidate()`).
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var managedObjectContext: ManagedObjectContext?

    /// The object's values: a slot per property, or its row packed in a block (see ``packedRow``). One field for
    /// either, as an object never has both: it weighs 8 bytes, not 16.
    @exclusivity(unchecked) var values: ObjectValues
    /// What only some objects need (changes, batches, key-path recording), kept apart so that the many objects a
    /// fetch makes are smaller; made on first need. See ``ObjectExtras``.
    @exclusivity(unchecked) var extras: ObjectExtras?
    // The small fields sit together, in an order that leaves no padding, and the flags share one byte: an object
    // is allocated for every fetched row, and malloc rounds its size up to a multiple of 16 (with ten @Managed
    // properties: 86 bytes, a 96-byte block; see ObjectLayoutTests).
    /// ``version`` when it fits 32 bits (every version a store of this library writes does); otherwise
    /// ``wideVersionMark``, and the version is kept in the extras.
    @exclusivity(unchecked) var compactVersion: Int32 = 0
    /// This object's position in its context's list of inserted objects (-1: not in it; see ``ObjectList``).
    @exclusivity(unchecked) var insertedPosition: Int32 = -1
    /// The fault state; the inserted, deleted, unfitting-value and inaccessible flags; the updated and deleted
    /// lists the object is in.
    @exclusivity(unchecked) var stateBits: ObjectStateBits
    /// This object's row in its packed row's block (16 bits: a block's format allows 65,535 rows; the blocks
    /// made today hold at most 256, see ``PackedRowAllocator``).
    @exclusivity(unchecked) var packedRowIndex: UInt16 = 0

    // Raw values in case order: ``ObjectStateBits`` relies on it.
    enum FaultState: UInt8 {
        /// The values are in ``values`` (slots, or a packed row) and have been read or set.
        case fired
        /// The values are in ``values`` (read with the fetch: the row cache) but have not been touched yet.
        case faultWithRow
        /// No values yet: the first read loads the row from the store.
        case faultWithoutRow
    }

    /// Makes an object of `entity` and, when `context` is given, inserts it there.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        ManagedPropertyOrdinal.reset()
        self.entity = entity
        self.objectID = .temporary(scope: entity.temporaryIDScope)
        self.stateBits = ObjectStateBits(faultState: .fired)
        if let layout = entity.packedLayout, let context,
           let (block, row) = PackedRow.makeInitialUnretained(entity, layout: layout, in: context) {
            // Packed, in a block shared with the context's other new objects: half the memory of slots, and a new
            // object's attributes are set in place. (The one retain of the block is the one stored here.)
            self.values = .packed(block.takeUnretainedValue())
            self.packedRowIndex = UInt16(row)
        } else if let layout = entity.packedLayout, context == nil,
                  let packed = PackedRow.makeInitial(entity, layout: layout) {
            self.values = .packed(packed.block)
            self.packedRowIndex = UInt16(packed.row)
        } else {
            // A private copy made here, where the element type is known, costs less than the copy-on-write of a
            // shared array at the first write (which copies element by element through generic value witnesses).
            var slots: [PropertySlot] = []
            slots.reserveCapacity(entity.initialSlots.count)
            for slot in entity.initialSlots { slots.append(slot) }
            self.values = .slots(slots)
        }
        if let context { context.insert(self) }
    }

    /// Makes the object for a stored row (a fault until its values arrive). Persistence calls this while
    /// fetching; you do not call it yourself.
    // The context is borrowed: the object keeps no counted reference to it, so taking one would cost a retain
    // and a release for every row a fetch reads.
    // Public although Core Data has no such initializer: the context makes objects of a class it knows only at run
    // time, which needs a `required` initializer, and one hidden from a subclass's module (internal or SPI) is
    // never overridden there, so the subclass's own stored properties would be left uninitialized.
    public required init(fetchedEntity entity: EntityDescription, objectID: ManagedObjectID, context: __shared ManagedObjectContext) {
        ManagedPropertyOrdinal.reset()
        self.entity = entity
        self.objectID = objectID
        self.stateBits = ObjectStateBits(faultState: .faultWithoutRow)
        self.values = .slots([])
        self.managedObjectContext = context
    }

    /// Makes an object of this class's entity in `context` and inserts it (Core Data's `init(context:)`).
    ///
    /// When the class is not part of the context's model, the object is still made (so nothing traps) but the
    /// context remembers the mistake and its next `save()` throws an error that names the class.
    public convenience init(context: ManagedObjectContext) {
        let entity = context.entityForInsert(of: Self.self)
        self.init(entity: entity, insertInto: context)
    }

    /// Called once, right after the object is inserted: set up initial values here.
    open func awakeFromInsert() {}
    /// Called when a fault is filled with values from the store.
    open func awakeFromFetch() {}
    /// Called before the object is saved — inserted, updated or deleted (``isDeleted`` tells which) — by its
    /// context's ``ManagedObjectContext/save()``, whether the context saves to the store or into a parent context.
    ///
    /// It may change values, this object's or others', and insert or delete objects. As in Core Data, whatever it
    /// dirties is written by the same save and gets a `willSave()` of its own: a new object, a changed one, a
    /// deleted one (after its delete rules have run, and the objects they cascade to or nullify count as dirtied
    /// too); and an object changed again after its `willSave()` ran gets another call. The save calls round after
    /// round until a round dirties nothing, then validates.
    ///
    /// Setting a value is a change even when the value is the one the object holds, so compare first. Apple's
    /// documentation warns that if you go on modifying a value in `willSave()`, it "will continue to be called until
    /// your program crashes"; here the save stops after 100 rounds and throws error 134060, naming the object still
    /// being changed, having written nothing (the changes `willSave()` made stay in the context). Calling `save()`
    /// from `willSave()` throws 134060 too.
    open func willSave() {}
    /// Called after the object has been saved.
    open func didSave() {}
    /// Called once for each deletion of the object, just before its delete rules run: a place for your own
    /// propagation while its relationships still hold their objects (a `Mood` telling its `Country` that it is
    /// going, say).
    ///
    /// As in Core Data, deletion is not immediate: ``ManagedObjectContext/delete(_:)`` only marks the object, and
    /// this runs, on the context's queue, when the context propagates its deletions — in
    /// ``ManagedObjectContext/processPendingChanges()``, at the start of ``ManagedObjectContext/save()``, and for an
    /// object deleted in ``willSave()`` before the save's next round. Objects that a delete rule cascades to, or
    /// that this method deletes, get their own call before their rules run. It may change and delete other objects
    /// (their changes are saved with the rest); it cannot stop the deletion (see ``validateForDelete()``).
    ///
    /// Batch deletes (``BatchDeleteRequest``) never call it: they act on the store, past every context.
    /// A deletion that is undone (rollback, re-insertion) and made again is prepared again.
    open func prepareForDeletion() {}

    /// Called just before the object is turned into a fault, while its values can still be read: a place to undo
    /// what needs them (observers across key paths, say). The default implementation does nothing.
    ///
    /// As in Core Data, an object becomes a fault when ``ManagedObjectContext/refresh(_:mergeChanges:)`` drops its
    /// values (`mergeChanges` false, or true for an object with no changes), when a merge of another context's
    /// save refreshes it, when its context is reset or goes away, when its deletion is saved, and when a rollback
    /// discards it as a new object. An object that is a fault already is not turned into one again and gets no
    /// call. ``didTurnIntoFault()`` follows.
    open func willTurnIntoFault() {}
    /// Called just after the object has been turned into a fault (see ``willTurnIntoFault()``): clear caches of
    /// your own here. Its values are gone (transient ones too); where the object has left its context (reset,
    /// saved deletion, the context gone) ``managedObjectContext`` is nil. The default implementation does nothing.
    open func didTurnIntoFault() {}

    /// Called when the object's values have been set from a snapshot rather than fetched: recompute derived
    /// values or transient state from its persistent properties here (with ``setPrimitiveValue(_:forKey:)`` to
    /// change values without marking the object changed). The default implementation does nothing.
    ///
    /// It is called with ``SnapshotEventType/rollback`` for each changed or deleted saved object that
    /// ``ManagedObjectContext/rollback()`` restores (after the rollback, so the restored values are seen), and with
    /// ``SnapshotEventType/refresh`` for an object that ``ManagedObjectContext/refresh(_:mergeChanges:)`` keeps,
    /// merging its changes over the store's values, and with ``SnapshotEventType/mergePolicy`` for an object whose
    /// values a merge policy took from the store while resolving a save's conflicts (on the saving context's queue,
    /// before the save writes; which objects Core Data sends it to is undocumented). The undo events are never
    /// passed, as this library has no undo manager.
    open func awake(fromSnapshotEvents flags: SnapshotEventType) {}

    // MARK: - Keys the model does not have

    /// The value of `key` when it names none of the entity's properties: ``value(forKey:)`` asks here, and so does
    /// a ``FetchedResultsController`` naming sections by a key path. Override it to answer keys your class computes
    /// from its properties — a section identifier made from a date, say — and call `super` for every other key.
    ///
    /// On Apple's platforms key-value coding finds such a key by name, through an `@objc` property or method of the
    /// subclass, and calls this method (NSObject's) only when there is none. Swift on Linux cannot look a property
    /// up by name, so here the override answers the key itself: `switch key { … }`. An override works the same way
    /// in Core Data, which calls it for a key that neither the model nor an accessor provides.
    ///
    /// The default implementation is Core Data's mistake: it raises `NSUnknownKeyException` ("the entity … is not
    /// key value coding-compliant for the key …"). Here it answers nil and the mistake is kept for the context's next
    /// save, which fails with 134020 naming the entity, the key and its properties (as for
    /// ``setValue(_:forKey:)``); a test harness is told of it even without a save. A fetched results controller
    /// counts a key that reaches this default as a mistake and fails its ``FetchedResultsController/performFetch()``,
    /// naming the entity and the key path.
    open func value(forUndefinedKey key: String) -> Any? {
        if let lookup = UndefinedKeyLookup.current {
            lookup.reachedDefault = true
            return nil
        }
        managedObjectContext?.recordMisuse(PersistenceError(
            .persistentStoreIncompatibleSchema,
            "value(forKey:): the entity \(entity.entityName) has no property named '\(key)' and \(type(of: self)) does not answer it in value(forUndefinedKey:) (Core Data raises NSUnknownKeyException here). Its properties: \(entity.properties.map(\.name).joined(separator: ", ")).",
            object: self, key: key))
        return nil
    }

    // MARK: - Access and change notifications (see ManagedObject+PrimitiveValues.swift)
    //
    // These are for hand-written accessors, which call them around primitiveValue(forKey:) and
    // setPrimitiveValue(_:forKey:). `@Managed` properties, value(forKey:) and setValue(_:forKey:) go straight to
    // the object's storage and do not call them, so an override sees only hand-written accessors' calls. Whether
    // Core Data's generated accessors call a subclass's override is undocumented.

    /// Announces that `key` (nil: any property) is about to be read: a fault is filled here, so that a
    /// hand-written getter may then read with ``primitiveValue(forKey:)``. Overrides must call `super`.
    open func willAccessValue(forKey key: String?) {
        if faultState != .fired { fireFault() }
    }

    /// Announces that `key` has been read; the counterpart of ``willAccessValue(forKey:)``. The default
    /// implementation does nothing; overrides must call `super`.
    open func didAccessValue(forKey key: String?) {}

    /// Announces that `key` is about to change: the object records the change here, keeping the value it holds
    /// for ``committedValues(forKeys:)`` and ``ManagedObjectContext/rollback()``, so that a value then set with
    /// ``setPrimitiveValue(_:forKey:)`` is saved, marks a saved object updated, and is listed by the context's
    /// next objects-did-change notification. Pair every call with ``didChangeValue(forKey:)``. An unknown key
    /// records nothing (Core Data's key-value observing does not check keys).
    ///
    /// Not overridable: Apple's documentation says "You must not override this method."
    public func willChangeValue(forKey key: String) {
        checkQueue(key)
        guard let index = entity.propertyIndexByName[key] else { return }
        willChange(at: index)
    }

    /// Announces that `key` has changed; the counterpart of ``willChangeValue(forKey:)``. The change is recorded
    /// here too when no `willChangeValue(forKey:)` came first (then the value held before it is not known, and
    /// the new one counts as the committed value for ``committedValues(forKeys:)``: undocumented by Apple, who
    /// require the pair). Overrides must call `super`.
    open func didChangeValue(forKey key: String) {
        guard let index = entity.propertyIndexByName[key] else { return }
        willChange(at: index)
    }

    // MARK: - Validation

    /// Checks the object before a save writes it as new; throw to fail the save with your error.
    ///
    /// ``ManagedObjectContext/save()`` calls it, on the context's queue, for every inserted object after the rounds
    /// of ``willSave()``. The default implementation applies the model's rules (required values, values that fit
    /// their attribute, to-one relationships that must be set, to-many counts) and calls
    /// ``validateValue(_:forKey:)`` for each attribute and to-one relationship. As Apple asks, an override calls
    /// `super` first and adds its own checks; the save collects the errors of every object: one error fails the
    /// save as it is, several make one error 1560 (`NSValidationMultipleErrorsError`) that lists them in
    /// `NSDetailedErrorsKey`. A failed save writes nothing.
    open func validateForInsert() throws { try validateForSave() }
    /// Checks a changed saved object before a save writes it; throw to fail the save. As
    /// ``validateForInsert()``, for updated objects, with ``validateValue(_:forKey:)`` called for each changed
    /// attribute and to-one relationship.
    open func validateForUpdate() throws { try validateForSave() }
    /// Checks that the object may be deleted, before a save writes its deletion; throw to fail the save. The
    /// default implementation refuses a deletion when a relationship with the deny rule still holds objects
    /// (1600, `NSValidationRelationshipDeniedDeleteError`); call `super` first, as for ``validateForInsert()``.
    open func validateForDelete() throws { try validateDeleteRules() }
    /// Checks `value` as a value for the property `key`; throw when it is not valid. `value` may be replaced by a
    /// valid one (key-value coding's "coercing" outcome).
    ///
    /// The default implementation applies the model's rules to `value`: nil where the property is required
    /// (1570), a value that does not fit the attribute (1550), an object of the wrong entity for a to-one
    /// relationship (1550); an unknown key throws 1550 too (Core Data raises `NSUnknownKeyException`). Call it to
    /// validate input before setting it, and override it (calling `super`) for rules of your own: the default
    /// ``validateForInsert()`` and ``validateForUpdate()`` call it at save for each attribute and to-one
    /// relationship (all of an inserted object's, an updated object's changed ones), with the value the object
    /// holds.
    ///
    /// Differences from Core Data, whose Swift signature takes an `AutoreleasingUnsafeMutablePointer<AnyObject?>`:
    /// the value is an `inout Any?` here, as Linux has no Objective-C pointers of that use. Core Data's default
    /// implementation also calls a method `validate<Key>(_:)` if the class has one, found by its name through the
    /// Objective-C runtime; Swift on Linux cannot look methods up by name, so write those rules in an override of
    /// this method (`switch key { … }`). When the save calls it, a value it replaces is not written back to the
    /// object (Apple does not document what a replacement does at save; change values in ``willSave()``), and the
    /// model's rules it would apply are checked once, by the save itself.
    open func validateValue(_ value: inout Any?, forKey key: String) throws {
        // At save the model's rules are checked in bulk by validateForSave(); only a direct call checks them here.
        guard managedObjectContext?.validatingObject !== self else { return }
        try validateModelRules(value, forKey: key)
    }

    /// The entity name this class goes by when the model gives the entity no class of its own: the class name.
    /// Internal: Core Data has no such member (it finds a class's entity through the model, ``entity()``).
    class var entityName: String { String(describing: self) }

    /// A request for this class's entity (Core Data's `NSManagedObject.fetchRequest()`): untyped, as Core Data's,
    /// so what a fetch returns is `[any FetchRequestResult]`.
    ///
    /// The typed request, `FetchRequest<Movie>`, comes from the class itself: Xcode's code generation writes a class
    /// method `fetchRequest()` returning `FetchRequest<Movie>(entityName: "Movie")`, and a hand-written class declares
    /// the same. With both in place, `let request = Movie.fetchRequest()` is ambiguous, as in Xcode; spell the type
    /// out: `let request: FetchRequest<Movie> = Movie.fetchRequest()`.
    ///
    /// Like Core Data's, it is only legal on a class that stands for a single entity of a loaded model: it finds the
    /// entity through ``entity()``, which stops the program otherwise.
    open class func fetchRequest() -> FetchRequest<any FetchRequestResult> {
        FetchRequest<any FetchRequestResult>(entityName: entity().entityName)
    }

    // MARK: - State

    /// `true` between insertion and the save that writes it.
    public var isInserted: Bool { insertedFlag && managedObjectContext != nil }
    /// `true` when a registered, saved object has unsaved changes.
    public var isUpdated: Bool { !insertedFlag && !deletedFlag && !changedIndexes.isEmpty }
    /// `true` once deleted in its context (until the deletion is saved or rolled back).
    public var isDeleted: Bool { deletedFlag || inaccessible }
    /// `true` while no property has been read since the object was fetched or refreshed.
    public var isFault: Bool { faultState != .fired }
    /// `true` when the object is inserted, deleted or updated.
    public var hasChanges: Bool { insertedFlag || deletedFlag || !changedIndexes.isEmpty }

    /// `true` when a changed property differs from what the store holds (setting a value to itself is no change;
    /// transient attributes, which the store does not hold, do not count).
    public var hasPersistentChangedValues: Bool {
        if insertedFlag || deletedFlag { return true }
        guard let committed = committedSlots else { return false }
        return changedIndexes.contains {
            !entity.isTransient(at: $0) && !Self.same(slots[$0], committed[$0], ordered: true)
        }
    }

    /// Current values, one per property of the entity; empty while a fault has no row. Reading or changing them
    /// unpacks a packed row first.
    var slots: [PropertySlot] {
        get {
            if packedBlock != nil { unpack() }
            return storedSlots
        }
        set {
            values = .slots(newValue)
        }
        _modify {
            if packedBlock != nil { unpack() }
            // Moved out while it is changed, so the array stays uniquely referenced and is not copied.
            var slots = storedSlots
            values = .slots([])
            defer { values = .slots(slots) }
            yield &slots
        }
    }

    /// The values as slots; empty while they are packed. Use ``slots``, which unpacks.
    var storedSlots: [PropertySlot] {
        if case .slots(let slots) = values { return slots }
        return []
    }

    /// The block of the packed row, unretained (the object holds it); nil while the values are slots.
    var packedBlock: Unmanaged<PackedRowBlock>? {
        @inline(__always) get {
            if case .packed(let block) = values { return Unmanaged.passUnretained(block) }
            return nil
        }
    }

    /// The row this object was fetched (or made) with, packed, while nothing has needed its values as slots:
    /// reads come from here, and the first change of a saved object (or anything else that needs slots) unpacks it
    /// into slots.
    var packedRow: PackedRow? {
        if case .packed(let block) = values { return PackedRow(block: block, row: Int(packedRowIndex)) }
        return nil
    }

    /// Takes row `row` of `block` as the object's values.
    @inline(__always)
    func setPackedRow(_ block: PackedRowBlock, row: Int) {
        values = .packed(block)
        packedRowIndex = UInt16(row)
    }

    /// `true` while the packed row holds no committed values — a new object's, or one outside any context — so
    /// setters may change it in place. (A saved object's row is what rollback and merging compare against: its
    /// first change unpacks it.) Each row belongs to one object only.
    @inline(__always)
    var hasWritablePackedRow: Bool {
        packedBlock != nil && faultState == .fired && (insertedFlag || managedObjectContext == nil)
    }

    private func unpack() {
        guard let packedRow else { return }
        values = .slots(packedRow.slots())
    }

    /// Saved: no longer inserted, and nothing changed since.
    @inline(__always)
    func markClean() {
        insertedFlag = false
        holdsUnfittingValue = false
        guard let extras else { return }
        extras.committedSlots = nil
        if !extras.changedIndexes.isEmpty { extras.changedIndexes = [] }
        // Nothing left to keep apart: the object goes back to its small size.
        if extras.isEmpty { self.extras = nil }
    }

    public var description: String {
        let state = isDeleted ? "deleted" : isInserted ? "inserted" : isUpdated ? "updated" : isFault ? "fault" : "saved"
        return "<\(type(of: self)) \(objectID.uriRepresentation().absoluteString) \(state)>"
    }
}

extension ManagedObject: Hashable {
    /// Objects are equal only to themselves (one object per ID per context).
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    // Final: identity is not for subclasses to change, and sets of thousands of objects are built for every save.
    public final func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// What sets and dictionaries use: the object's address mixed with the table's seed by one multiplication,
    /// instead of a full SipHash round per object (a save builds sets of every object it saved). Addresses are not
    /// chosen by an attacker, so the keyed hash buys nothing here.
    public final func _rawHashValue(seed: Int) -> Int {
        fastHash(UInt64(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())), seed: seed)
    }
}

/// A multiplicative hash of `bits` mixed with a table's `seed`, folded so the high bits the multiplication mixes
/// best reach the low bits a table indexes by.
@inline(__always)
func fastHash(_ bits: UInt64, seed: Int) -> Int {
    let mixed = (bits ^ UInt64(bitPattern: Int64(seed))) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
}
