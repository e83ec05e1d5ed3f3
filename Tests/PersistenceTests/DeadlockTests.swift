import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Nested `performAndWait` patterns Core Data allows must finish. Each runs off the main thread under a timeout, so
/// a deadlock fails the test instead of hanging the run (the main thread keeps serving the main queue meanwhile).
final class DeadlockTests: PersistenceTestCase {
    private func assertFinishes(_ name: String, within seconds: TimeInterval = 10,
                                _ body: @escaping @Sendable () -> Void) {
        let finished = expectation(description: name)
        Thread.detachNewThread {
            body()
            finished.fulfill()
        }
        wait(for: [finished], timeout: seconds)
    }

    private func child(of parent: ManagedObjectContext) -> ManagedObjectContext {
        let child = ManagedObjectContext(.privateQueue)
        child.parent = parent
        return child
    }

    func testChildParentChildNesting() {
        let parent = container.newBackgroundContext()
        let child = child(of: parent)
        assertFinishes("child → parent → child") {
            child.performAndWait {
                parent.performAndWait {
                    child.performAndWait { _ = child.hasChanges }
                }
            }
        }
    }

    func testChildSavesIntoAMainQueueParentFromABackgroundThread() {
        let child = child(of: context)
        assertFinishes("child save into the view context") {
            child.performAndWait {
                let movie = Movie(context: child)
                movie.title = "Nested"
                try? child.save()
            }
        }
        XCTAssertEqual(context.insertedObjects.count, 1)
    }

    func testGrandchildSavesUpTwoPrivateLevels() {
        let parent = container.newBackgroundContext()
        let middle = child(of: parent)
        let leaf = child(of: middle)
        assertFinishes("grandchild save, then child save") {
            leaf.performAndWait {
                let movie = Movie(context: leaf)
                movie.title = "Deep"
                try? leaf.save()
                middle.performAndWait { try? middle.save() }
            }
            parent.performAndWait { try? parent.save() }
        }
        XCTAssertEqual(try storedCount("Movie", "title == 'Deep'"), 1)
    }

    func testReentrantPerformAndWaitOnOneContext() {
        let background = container.newBackgroundContext()
        assertFinishes("re-entrant") {
            background.performAndWait {
                background.performAndWait {
                    background.performAndWait { _ = Movie(context: background) }
                }
                background.rollback()
            }
        }
    }
}
