import Persistence

/// A flashcard: one of the two entities of lesson 12's model (see ``FlashcardsModel``). Cards move through the
/// boxes of a Leitner system: a card answered right goes up a box and comes back less often; restarting a deck
/// puts all its cards back in box 1.
public final class Flashcard: ManagedObject {
    /// What the card asks ("hablar").
    @Managed public var front: String
    /// Its Leitner box, 1 to 5; a new card starts in box 1.
    @Managed public var box: Int
    /// The deck it belongs to.
    @Managed public var deck: FlashcardDeck?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Flashcard> {
        FetchRequest<Flashcard>(entityName: "Flashcard")
    }
}
