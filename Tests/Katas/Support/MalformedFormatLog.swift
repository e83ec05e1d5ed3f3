import Foundation
import Persistence

/// The predicate formats that did not parse during the current kata. On Apple platforms a malformed
/// `NSPredicate(format:)` stops the app, and so does `FetchPredicate(format:)` by default; in a kata the predicate
/// instead fails where it is used and the parser's message is reported here, so the learner reads it as a failed
/// kata rather than a dead test run.
final class MalformedFormatLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [FetchPredicateError] = []

    func append(_ error: FetchPredicateError) {
        lock.withLock { errors.append(error) }
    }

    /// The errors so far, forgetting them (each is reported once).
    func take() -> [FetchPredicateError] {
        lock.withLock {
            let taken = errors
            errors = []
            return taken
        }
    }

    /// What a learner needs to read: which format, where it broke, and that an app would have stopped.
    static func message(for errors: [FetchPredicateError], inRussian: Bool) -> String {
        let more = errors.count > 1 ? (inRussian ? " (и ещё \(errors.count - 1))" : " (and \(errors.count - 1) more)") : ""
        return inRussian
            ? "формат предиката не разобран\(more) — приложение на этом остановилось бы:\n\(errors[0])"
            : "a predicate format did not parse\(more) — an app would stop right there:\n\(errors[0])"
    }
}
