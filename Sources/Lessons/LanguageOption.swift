import ArgumentParser
import LessonsKit

/// The language choices of `--lang`.
enum LanguageOption: String, ExpressibleByArgument, CaseIterable {
    case en, ru

    var language: Language { self == .ru ? .ru : .en }
}
