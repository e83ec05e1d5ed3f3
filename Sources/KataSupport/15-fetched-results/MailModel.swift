@_spi(ModelBuilding) import Persistence

/// Lesson 15's model, `Mail`: messages filed in folders, and the address book's contacts they come from.
public enum MailModel {
    public static let name = "Mail"

    // region: model
    /// A new model instance each call.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "MailMessage", managedObjectClass: MailMessage.self, properties: [
                .attribute("subject", .string, optional: false),
                .attribute("sender", .string, defaultValue: ""),
                .attribute("folder", .string, defaultValue: "inbox"),
                .attribute("received", .integer64, defaultValue: 0),
                .attribute("unread", .boolean, defaultValue: true),
                .toOne("contact", "MailContact", inverse: "messages", deleteRule: .nullify),
            ]),
            EntityDescription(name: "MailContact", managedObjectClass: MailContact.self, properties: [
                .attribute("name", .string, defaultValue: ""),
                .toMany("messages", "MailMessage", inverse: "contact", deleteRule: .nullify),
            ]),
        ])
    }
    // endregion: model
}
