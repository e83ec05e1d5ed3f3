import XCTest
@testable import LessonsKit

final class FileWatcherTests: TemporaryFolderTestCase {
    private func checkDetectsChanges(useNotifications: Bool) throws {
        let file = try write("let a = 1\n", to: "Starter/Sub/Store.swift")
        let watcher = FileWatcher(paths: [temporary.appendingPathComponent("Starter")], pollInterval: 0.2,
                                  useNotifications: useNotifications)
        XCTAssertEqual(watcher.waitForChange(timeout: 0.3), [], "nothing changed yet")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            try? Data("let a = 22\n".utf8).write(to: file)
        }
        let started = Date()
        XCTAssertEqual(watcher.waitForChange(timeout: 5), [file.path])
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        // A swap file is not a change; a new file is.
        _ = try write("x", to: "Starter/.Store.swift.swp")
        XCTAssertEqual(watcher.waitForChange(timeout: 0.5), [])
        let added = try write("x", to: "Starter/New.swift")
        XCTAssertEqual(watcher.waitForChange(timeout: 5), [added.path])
    }

    func testPolling() throws {
        try checkDetectsChanges(useNotifications: false)
    }

    func testNotifications() throws {
        #if os(Linux)
        let watcher = FileWatcher(paths: [temporary], useNotifications: true)
        XCTAssertEqual(watcher.mechanism, "inotify")
        #endif
        try checkDetectsChanges(useNotifications: true)
    }
}
