/// How lesson 9's import reports its end: nil when every page was saved, the error otherwise. It is called on the
/// main queue, after the view context has been brought up to date, so the caller may fetch at once.
public typealias ImportCompletion = @Sendable ((any Error)?) -> Void
