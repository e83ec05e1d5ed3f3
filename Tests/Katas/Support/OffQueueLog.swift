import Foundation
@_spi(ConcurrencyDebugging) import Persistence

/// The off-queue uses Persistence's concurrency debugger reported during the current kata.
typealias OffQueueLog = ReportLog<ConcurrencyViolation>

extension ReportLog where Entry == ConcurrencyViolation {
    /// What a learner needs to read: the rule, what broke it, and how to fix it.
    static func message(for violations: [ConcurrencyViolation]) -> String {
        let first = violations[0]
        let more = violations.count > 1 ? " (and \(violations.count - 1) more use\(violations.count == 2 ? "" : "s"))" : ""
        let thread = first.onMainThread ? "the main thread" : "a background thread"
        return "used off its queue: \(first.operation) ran on \(thread), outside the queue of \(describe(first.context))"
            + "\(more). Each context and its objects belong to that context's queue: wrap the work in "
            + "perform/performAndWait of the context that owns it, and hand another context an objectID, never the "
            + "object."
    }

    /// A context as the learner knows it: by name when it has one, else by its kind.
    private static func describe(_ context: String) -> String {
        guard context.hasPrefix("<") else { return "context \"\(context)\"" }
        if context.contains("privateQueue") { return "a background (private-queue) context" }
        if context.contains("mainQueue") { return "the main-queue context (viewContext)" }
        return context
    }
}
