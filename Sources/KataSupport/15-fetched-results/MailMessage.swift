import Persistence

/// A message of a mail app: the one entity of lesson 15's model (see ``MailModel``). The inbox screen shows the
/// messages in sections by ``folder``, the newest first in each.
public final class MailMessage: ManagedObject {
    /// What the message is about ("Lunch on Friday").
    @Managed public var subject: String
    /// Who sent it ("Ada").
    @Managed public var sender: String
    /// The folder it is filed in, in lower case ("inbox", "taxes", "travel"): the inbox's sections.
    @Managed public var folder: String
    /// When it arrived, in minutes; a snoozed message gets a new time and comes back to the top of its folder.
    @Managed public var received: Int
    /// Whether the user has yet to read it.
    @Managed public var unread: Bool
    /// The sender's entry in the address book, when the app has one: the row shows its name instead of ``sender``.
    @Managed public var contact: MailContact?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<MailMessage> {
        FetchRequest<MailMessage>(entityName: "MailMessage")
    }
}
