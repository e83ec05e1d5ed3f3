import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`: a coordinator posts `.NSPersistentStoreRemoteChange`
/// for every transaction written to its store's file, by itself or by another coordinator, and stops watching when it
/// goes away. (Another process's writes: PersistentHistoryProcessTests.)
final class RemoteChangeNotificationTests: PersistenceTestCase {
    private typealias Note = HistoryModel.Note

    override func makeModel() throws -> ManagedObjectModel { try HistoryModel.make() }

    /// Collects the remote-change notifications `coordinator` posts while the test runs.
    private func observe(_ coordinator: PersistentStoreCoordinator) -> Notes {
        let notes = Notes()
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator,
                                                              queue: nil) { notes.append($0) }
        addTeardownBlock { NotificationCenter.default.removeObserver(observer) }
        return notes
    }

    /// Waits until `notes` holds `count` notifications; returns how long that took.
    @discardableResult
    private func waitFor(_ count: Int, in notes: Notes, timeout: TimeInterval = 5, file: StaticString = #filePath,
                         line: UInt = #line) -> TimeInterval {
        let start = Date()
        while notes.count < count && Date().timeIntervalSince(start) < timeout {
            Thread.sleep(forTimeInterval: 0.002)
        }
        XCTAssertGreaterThanOrEqual(notes.count, count, "remote-change notifications", file: file, line: line)
        return Date().timeIntervalSince(start)
    }

    func testAnotherCoordinatorsSaveIsPostedWithTheStoreURLIdentifierAndToken() throws {
        let url = try temporaryFolder().appendingPathComponent("notes.sqlite")
        let watching = try HistoryModel.container(HistoryModel.description(url, remoteChanges: true))
        let writing = try HistoryModel.container(HistoryModel.description(url))
        let notes = observe(watching.persistentStoreCoordinator)

        let writer = writing.newBackgroundContext()
        writer.transactionAuthor = "writer"
        try writer.performAndWait {
            Note(context: writer).title = "Elsewhere"
            try writer.save()
        }
        let latency = waitFor(1, in: notes)
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(notes.count, 1, "one notification per transaction")
        let note = try XCTUnwrap(notes.all.first)
        XCTAssertTrue(note.object as AnyObject === watching.persistentStoreCoordinator)
        XCTAssertEqual(note.userInfo?[NSPersistentStoreURLKey] as? URL, url)
        XCTAssertEqual(note.userInfo?[NSStoreUUIDKey] as? String, watching.persistentStoreCoordinator.storeIdentifier)
        let token = try XCTUnwrap(note.userInfo?[NSPersistentHistoryTokenKey] as? PersistentHistoryToken)
        let transaction = try XCTUnwrap(watching.viewContext.history().last)
        XCTAssertEqual(transaction.token, token)
        XCTAssertEqual(transaction.author, "writer")
        print("remote change from another coordinator of this process seen after \(String(format: "%.1f", latency * 1000)) ms")
    }

    func testOwnSavesAndBatchRequestsArePostedOnAPrivateQueue() throws {
        let container = try HistoryModel.container(HistoryModel.description(remoteChanges: true))
        let notes = observe(container.persistentStoreCoordinator)
        let threads = Notes()
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange,
                                                              object: container.persistentStoreCoordinator, queue: nil) { note in
            if !Thread.isMainThread { threads.append(note) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        Note(context: container.viewContext).title = "Mine"
        try container.viewContext.save()
        try container.viewContext.execute(BatchInsertRequest(entityName: "Note", objects: [["title": "Batch"]]))
        waitFor(2, in: notes)
        let tokens = notes.all.compactMap { $0.userInfo?[NSPersistentHistoryTokenKey] as? PersistentHistoryToken }
        XCTAssertEqual(tokens, try container.viewContext.history().map(\.token))
        XCTAssertEqual(threads.count, notes.count, "posted off the main thread")
    }

    func testAStoreWithoutHistoryPostsWithoutAToken() throws {
        let container = try HistoryModel.container(HistoryModel.description(tracking: nil, remoteChanges: true))
        let notes = observe(container.persistentStoreCoordinator)
        Note(context: container.viewContext).title = "Untracked"
        try container.viewContext.save()
        waitFor(1, in: notes)
        XCTAssertNil(notes.all.first?.userInfo?[NSPersistentHistoryTokenKey])
        XCTAssertNotNil(notes.all.first?.userInfo?[NSStoreUUIDKey])
    }

    func testWithoutTheOptionNothingIsWatched() throws {
        let container = try HistoryModel.container(HistoryModel.description())
        XCTAssertNil(container.persistentStoreCoordinator.remoteChangeWatcher)
        let notes = observe(container.persistentStoreCoordinator)
        Note(context: container.viewContext).title = "Quiet"
        try container.viewContext.save()
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(notes.count, 0)
    }

    func testTheWatcherStopsWhenItsCoordinatorGoesAway() throws {
        weak var watcher: RemoteChangeWatcher?
        weak var coordinator: PersistentStoreCoordinator?
        do {
            let container = try HistoryModel.container(HistoryModel.description(remoteChanges: true))
            watcher = container.persistentStoreCoordinator.remoteChangeWatcher
            coordinator = container.persistentStoreCoordinator
            XCTAssertNotNil(watcher)
            let before = RemoteChangeWatcher.polls
            Thread.sleep(forTimeInterval: 0.2)
            XCTAssertGreaterThan(RemoteChangeWatcher.polls, before, "it looks on a timer")
        }
        XCTAssertNil(coordinator, "the watcher does not keep its coordinator")
        XCTAssertNil(watcher, "the watcher went with its coordinator")
        let after = RemoteChangeWatcher.polls
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(RemoteChangeWatcher.polls, after, "no timer is left running")
    }
}
