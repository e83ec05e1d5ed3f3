import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Code of the user's — `awakeFromFetch()`, `willSave()`, `didSave()`, `awake(fromSnapshotEvents:)` — never runs while the coordinator's lock is
/// held: the store hands rows back as values and the context makes objects once the lock is released, so that
/// code may use the store (from any thread) without waiting on itself.
final class CoordinatorLockTests: PersistenceTestCase {
    func testAwakeFromFetchRunsOutsideTheCoordinatorsLock() throws {
        let container = try makeContainer(model: LockProbeNote.model())
        for text in ["a", "b", "c"] { LockProbeNote(context: container.viewContext).text = text }
        try container.viewContext.save()
        LockProbeNote.probes.reset()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = FetchRequest<LockProbeNote>(entityName: "Note")
            request.returnsObjectsAsFaults = false
            XCTAssertEqual(try reader.fetch(request).count, 3)
        }
        XCTAssertEqual(LockProbeNote.probes.ran, ["awakeFromFetch", "awakeFromFetch", "awakeFromFetch"])
        XCTAssertEqual(LockProbeNote.probes.heldDuring, [], "another thread could not take the coordinator's lock")
    }

    func testWillSaveAndDidSaveRunOutsideTheCoordinatorsLock() throws {
        let container = try makeContainer(model: LockProbeNote.model())
        LockProbeNote.probes.reset()
        LockProbeNote(context: container.viewContext).text = "new"
        try container.viewContext.save()
        XCTAssertEqual(LockProbeNote.probes.ran, ["willSave", "didSave"])
        XCTAssertEqual(LockProbeNote.probes.heldDuring, [], "another thread could not take the coordinator's lock")
    }

    func testAMergePolicysSnapshotEventRunsOutsideTheCoordinatorsLock() throws {
        let container = try makeContainer(model: LockProbeNote.model())
        let note = LockProbeNote(context: container.viewContext)
        note.text = "saved"
        try container.viewContext.save()
        let other = container.newBackgroundContext()
        try other.performAndWait {
            try other.existingObject(with: note.objectID).setValue("theirs", forKey: "text")
            try other.save()
        }
        LockProbeNote.probes.reset()
        note.text = "mine"
        container.viewContext.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        try container.viewContext.save()
        XCTAssertEqual(LockProbeNote.probes.ran, ["willSave", "mergePolicy"])
        XCTAssertEqual(LockProbeNote.probes.heldDuring, [], "another thread could not take the coordinator's lock")
    }
}

/// A note that, from its callbacks, asks another thread to take its coordinator's lock and records whether it could.
final class LockProbeNote: ManagedObject {
    @Managed var text: String

    /// What the callbacks recorded (tests run one at a time; the lock is for the probing threads).
    final class Probes: @unchecked Sendable {
        private let lock = NSLock()
        private var moments: [String] = []
        private var held: [String] = []

        var ran: [String] { lock.withLock { moments } }
        var heldDuring: [String] { lock.withLock { held } }

        func reset() { lock.withLock { moments = []; held = [] } }

        func record(_ moment: String, held wasHeld: Bool) {
            lock.withLock {
                moments.append(moment)
                if wasHeld { held.append(moment) }
            }
        }
    }

    static let probes = Probes()

    private func probe(_ moment: String) {
        guard let coordinator = managedObjectContext?.persistentStoreCoordinator else { return }
        let taken = DispatchSemaphore(value: 0)
        // The coordinator's lock is recursive: only another thread finds out whether this one holds it.
        DispatchQueue.global().async {
            _ = coordinator.storeIdentifier
            taken.signal()
        }
        Self.probes.record(moment, held: taken.wait(timeout: .now() + 2) == .timedOut)
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        probe("awakeFromFetch")
    }

    override func willSave() {
        super.willSave()
        probe("willSave")
    }

    override func didSave() {
        super.didSave()
        probe("didSave")
    }

    override func awake(fromSnapshotEvents flags: SnapshotEventType) {
        super.awake(fromSnapshotEvents: flags)
        if flags == .mergePolicy { probe("mergePolicy") }
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", managedObjectClass: LockProbeNote.self, properties: [.attribute("text", .string)]),
        ])
    }
}
