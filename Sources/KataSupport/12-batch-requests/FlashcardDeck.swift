import Persistence

/// A deck of flashcards: one of the two entities of lesson 12's model (see ``FlashcardsModel``).
public final class FlashcardDeck: ManagedObject {
    /// The deck's code in the study server's catalog ("es-verbs"): unique, so a catalog import updates a deck it
    /// already has instead of adding a second one.
    @Managed public var code: String
    /// The name the app shows ("Spanish verbs").
    @Managed public var name: String
    /// Whether the learner put the deck away; archived decks are cleared out now and then.
    @Managed public var archived: Bool
    /// The deck's cards. Deleting a deck deletes its cards (cascade).
    @Managed public var cards: Set<Flashcard>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<FlashcardDeck> {
        FetchRequest<FlashcardDeck>(entityName: "FlashcardDeck")
    }
}
