import KataSupport
import Persistence

/// One test of the example's tiny suite: a name and a body that throws ``ExampleTest/Failure`` when its
/// expectation does not hold. The example runs these by hand to show what a test runner would report.
struct ExampleTest {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let name: String
    let body: (ManagedObjectContext) throws -> Void

    /// Runs the test with the context `makeContext` gives it and prints one line: passed, or why it failed.
    func run(with makeContext: () throws -> ManagedObjectContext) {
        do {
            try body(try makeContext())
            print("    ✓ \(name)")
        } catch {
            print("    ✗ \(name): \(error)")
        }
    }

    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(description: message()) }
    }
}
