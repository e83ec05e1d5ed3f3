/// A suite that cannot set its katas up: a mistake in the suite, not in the learner's code.
struct KataSetupError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
