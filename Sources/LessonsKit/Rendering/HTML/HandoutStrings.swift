/// The few words of page furniture on a handout, in the page's language.
struct HandoutStrings {
    var language: Language

    private func pick(_ en: String, _ ru: String) -> String { language == .ru ? ru : en }

    var allLessons: String { pick("All lessons", "Все уроки") }
    var printVersion: String { pick("Print version", "Версия для печати") }
    var contents: String { pick("Contents", "Содержание") }
    var katas: String { pick("Katas", "Каты") }
    var workIn: String { pick("Work in", "Где работать") }
    var basedOn: String { pick("Based on", "По материалам") }
    var runExample: String { pick("Run the example", "Запустить пример") }
    var coming: String { pick("coming", "скоро") }
    var notWrittenYet: String { pick("not written yet", "ещё не написано") }
    var referenceSolution: String { pick("Reference solution", "Эталонное решение") }
    var solutionsAppendix: String { pick("Appendix: the reference solutions", "Приложение: эталонные решения") }
    var languageLabel: String { pick("Language", "Язык") }
    func lesson(_ number: Int, of total: Int) -> String { pick("Lesson \(number) of \(total)", "Урок \(number) из \(total)") }
}
