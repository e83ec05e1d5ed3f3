import Foundation
@_spi(TestHarness) import Persistence
import XCTest

extension PersistenceTestCase {
    /// Until the test ends, a read of nil through a non-optional `@Managed` property is appended to `list` instead
    /// of stopping the program (what a device does), so a test can read it and look at the report.
    func reportNilReads(into list: ReportedList<NilRead>) {
        ManagedObject.nilReadHandling = .report { list.append($0) }
        addTeardownBlock { ManagedObject.nilReadHandling = .stop }
    }
}
