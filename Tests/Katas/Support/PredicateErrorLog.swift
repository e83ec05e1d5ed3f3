import Foundation
import Persistence

/// The predicate programming errors of the current kata: formats that did not parse and predicates that could not be
/// evaluated. On Apple platforms either stops the app (Core Data raises), and so does Persistence by default; in a
/// kata the error is reported here instead, so the learner reads it as a failed kata rather than a dead test run.
typealias PredicateErrorLog = ReportLog<FetchPredicateError>

extension ReportLog where Entry == FetchPredicateError {
    /// What a learner needs to read: what went wrong, where, and that an app would have stopped.
    static func message(for errors: [FetchPredicateError], inRussian: Bool) -> String {
        let more = errors.count > 1 ? (inRussian ? " (и ещё \(errors.count - 1))" : " (and \(errors.count - 1) more)") : ""
        let parsed = errors[0].kind != .evaluation
        if inRussian {
            let what = parsed ? "формат предиката не разобран" : "предикат не удалось вычислить"
            return "\(what)\(more) — приложение на этом остановилось бы:\n\(errors[0])"
        }
        let what = parsed ? "a predicate format did not parse" : "a predicate could not be evaluated"
        return "\(what)\(more) — an app would stop right there:\n\(errors[0])"
    }
}
