import Foundation
@_spi(TestHarness) import Persistence

/// Mistakes Core Data raises an exception for at the call (inserting an object into a context it does not belong to,
/// deleting another context's object, a class missing from the model…), or calls unsupported, that the current kata's
/// code made. Persistence keeps such a mistake and throws it at the context's next `save()`; code that never saves
/// that context, or catches that save's error and carries on, would pass a kata here and fail on a device, so the
/// kata fails instead.
typealias MisuseLog = ReportLog<PersistenceError>

extension ReportLog where Entry == PersistenceError {
    /// What a learner needs to read: the mistake, and that a device fails at the call itself.
    static func message(for misuses: [PersistenceError], inRussian: Bool) -> String {
        let more = misuses.count > 1 ? (inRussian ? " (и ещё \(misuses.count - 1))" : " (and \(misuses.count - 1) more)") : ""
        if inRussian {
            return "ошибка, на которой Core Data останавливает приложение прямо в вызове (или которую не поддерживает), "
                + "осталась в контексте: ни один save() её не выбросил или её поймали и забыли\(more): \(misuses[0].message)"
        }
        return "a mistake Core Data stops the app for at the call itself (or does not support) was left in the context: "
            + "no save() threw it, or its error was caught and dropped\(more): " + misuses[0].message
    }
}
