/// One reminder of the calendar feed the app imports: it becomes a to-do item with this title, not done.
public struct ReminderEntry: Sendable, Equatable {
    public var title: String

    public init(title: String) {
        self.title = title
    }
}
