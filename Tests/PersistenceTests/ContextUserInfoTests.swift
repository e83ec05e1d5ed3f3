import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// A context's `userInfo`: the app's own notes, kept by the context and never touched by it.
final class ContextUserInfoTests: PersistenceTestCase {
    func testAContextKeepsWhatTheAppPutsInItsUserInfo() {
        let other = container.newBackgroundContext()
        context.userInfo["screen"] = "library"
        XCTAssertEqual(context.userInfo["screen"] as? String, "library")
        XCTAssertNil(other.userInfo["screen"], "each context has its own")
        context.reset()
        XCTAssertEqual(context.userInfo["screen"] as? String, "library", "reset forgets objects, not the app's notes")
    }
}
