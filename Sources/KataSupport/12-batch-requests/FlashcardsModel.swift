@_spi(ModelBuilding) import Persistence

/// Lesson 12's model, `Flashcards`: decks of flashcards, with a uniqueness constraint on the deck's code.
public enum FlashcardsModel {
    public static let name = "Flashcards"

    // region: model
    /// A new model instance each call.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "FlashcardDeck", managedObjectClass: FlashcardDeck.self, properties: [
                .attribute("code", .string, optional: false),
                .attribute("name", .string, optional: false),
                .attribute("archived", .boolean, defaultValue: false),
                .toMany("cards", "Flashcard", inverse: "deck", deleteRule: .cascade),
            ], uniquenessConstraints: [["code"]]),
            EntityDescription(name: "Flashcard", managedObjectClass: Flashcard.self, properties: [
                .attribute("front", .string, optional: false),
                .attribute("box", .integer16, defaultValue: 1),
                .toOne("deck", "FlashcardDeck", inverse: "cards", deleteRule: .nullify),
            ]),
        ])
    }
    // endregion: model
}
