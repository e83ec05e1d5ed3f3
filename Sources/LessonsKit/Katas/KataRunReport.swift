/// What one run of `swift test` said about a kata suite, as read by ``XCTestOutputParser``.
public struct KataRunReport: Equatable, Sendable {
    /// Where an assertion failed and what it said.
    public struct Failure: Equatable, Sendable {
        public var file: String?
        public var line: Int?
        public var message: String

        /// The message without the `failed - ` that XCTest puts before the text of an `XCTFail` (every kata
        /// failure is one): what the kata said, and nothing else.
        public var text: String {
            message.hasPrefix("failed - ") ? String(message.dropFirst("failed - ".count)) : message
        }
    }

    public enum Outcome: Equatable, Sendable {
        case passed
        case failed([Failure])
        case skipped(String)
        /// The test process died during this kata (a trap, `fatalError`…); the message says how.
        case crashed(String)
        /// The kata never ran: the build failed or the process died before it.
        case notRun
    }

    public struct Result: Equatable, Sendable {
        public var suite: String
        public var name: String
        public var outcome: Outcome
    }

    /// Results in the order the tests ran.
    public var results: [Result] = []
    /// Compiler or linker errors when the build failed, each with its location.
    public var buildErrors: [String] = []
    /// The runtime's last words when the process crashed (`Fatal error: Index out of range`).
    public var crashMessage: String?

    public init() {}

    public var buildFailed: Bool { !buildErrors.isEmpty && results.isEmpty }

    /// The result for a kata, `.notRun` when it did not appear in the output.
    public func outcome(of kata: String) -> Outcome {
        results.last { $0.name == kata }?.outcome ?? .notRun
    }
}
