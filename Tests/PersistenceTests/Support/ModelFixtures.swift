import Foundation
import XCTest

/// The model files in Xcode's format under Fixtures/Models, copied into the test bundle.
enum ModelFixtures {
    /// The folder holding them in the test bundle.
    static func folder() throws -> URL {
        try XCTUnwrap(Bundle.module.url(forResource: "Models", withExtension: nil), "Fixtures/Models is missing from the test bundle")
    }

    /// `path` inside the fixtures folder, e.g. `Films.xcdatamodeld` or `Invalid/Malformed.xml`.
    static func url(_ path: String) throws -> URL {
        try folder().appendingPathComponent(path)
    }
}
