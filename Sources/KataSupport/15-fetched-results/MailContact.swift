import Persistence

/// An entry of the mail app's address book (see ``MailModel``): a message from a known sender shows the entry's
/// ``name`` instead of the address the message came with. Renaming the entry changes the rows of all its messages —
/// a change the inbox's controller, which follows messages, does not report.
public final class MailContact: ManagedObject {
    /// The name the app shows for the sender ("Ada Lovelace").
    @Managed public var name: String
    /// The messages from this sender.
    @Managed public var messages: Set<MailMessage>
}
