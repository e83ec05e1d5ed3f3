import Foundation
import KataSupport
// Persistence-only: FetchSortDescriptor(…, caseInsensitive:), where Core Data takes a selector (lesson 13).
@_spi(SortCaseFolding) import Persistence

/// The search field of a cookbook app: what the user types becomes a fetch request for the dishes whose name
/// holds every word of it, whatever the accents and capitals.
///
/// Lesson 13, katas 1–3. Check with `swift run lessons check 13`.
public enum DishSearch {
    /// Katas 1–3: a predicate that matches the dishes whose name contains every word of `text`, ignoring case and
    /// diacritics (`"creme brulee"` finds "Crème Brûlée"), or `nil` when `text` has no words (every dish matches).
    /// `%`, `_` and quotes in a word are matched as they are.
    public static func predicate(for text: String) throws -> FetchPredicate? {
        throw KataNotDone(lesson: 13)
    }

    /// Katas 1–3: a fetch request for the dishes matching `text` (see ``predicate(for:)``), sorted by name,
    /// ignoring case.
    public static func fetchRequest(matching text: String) throws -> FetchRequest<Dish> {
        throw KataNotDone(lesson: 13)
    }
}
