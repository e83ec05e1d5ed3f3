/// The transaction authors of the to-do app: who wrote each transaction of the store's persistent history
/// (``PersistentHistoryTransaction/author``). A reader skips its own author's transactions: it has them already.
public enum TodoAuthor {
    /// The app's own saves, from its view context.
    public static let app = "app"
    /// The calendar import: reminders brought in by batch insert on a background context.
    public static let calendarImport = "calendar-import"
    /// The home-screen widget, a process of its own writing to the same store file.
    public static let widget = "widget"
}
