import Foundation
@_spi(TestHarness) import Persistence

/// Nil read through a non-optional `@Managed` property during the current kata (a `Date` or `String` property over
/// an attribute with no value). Persistence stops the program for it by default, as a device may (Core Data
/// documents nothing, and a non-optional `Date` over nil is reported to crash); in a kata it is reported here
/// instead, so the learner reads it as a failed kata rather than a dead test run.
typealias NilReadLog = ReportLog<NilRead>

extension ReportLog where Entry == NilRead {
    /// What a learner needs to read: which property, why it matters on a device, and the two ways out.
    static func message(for reads: [NilRead], inRussian: Bool) -> String {
        let first = reads[0]
        let more = reads.count > 1 ? (inRussian ? " (и ещё \(reads.count - 1))" : " (and \(reads.count - 1) more)") : ""
        if inRussian {
            return "\(first.entityName).\(first.key) объявлено неопциональным (\(first.typeName)), но прочитано "
                + "значение nil\(more) — на устройстве приложение на этом может остановиться. Задайте значение до "
                + "чтения (или значение по умолчанию в модели) либо объявите свойство как \(first.typeName)?."
        }
        return "\(first.entityName).\(first.key) is declared \(first.typeName), not optional, and was read while nil"
            + "\(more) — on a device that read can stop the app. Set it (or give the attribute a default value in "
            + "the model) before anything reads it, or declare the property \(first.typeName)?."
    }
}
