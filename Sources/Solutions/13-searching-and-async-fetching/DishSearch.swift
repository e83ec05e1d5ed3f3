import Foundation
import KataSupport
// Persistence-only: FetchSortDescriptor(…, caseInsensitive:), where Core Data takes a selector (lesson 13).
@_spi(SortCaseFolding) import Persistence

/// The search field of a cookbook app: what the user types becomes a fetch request for the dishes whose name
/// holds every word of it, whatever the accents and capitals.
public enum DishSearch {
    // region: predicate
    /// A predicate that matches the dishes whose name contains every word of `text`, ignoring case and diacritics
    /// (`"creme brulee"` finds "Crème Brûlée"), or `nil` when `text` has no words: every dish matches.
    ///
    /// Each word is an argument of the predicate, never part of its format string, so `%`, `_` and quotes in it
    /// are matched as they are.
    public static func predicate(for text: String) throws -> FetchPredicate? {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        let terms = words.map { FetchPredicate(format: "name CONTAINS[cd] %@", $0) }
        return CompoundPredicate(andPredicateWithSubpredicates: terms)   // every word must match, in any order: AND, not OR
    }
    // endregion: predicate

    // region: fetch-request
    /// The dishes matching `text` (see ``predicate(for:)``), by name.
    public static func fetchRequest(matching text: String) throws -> FetchRequest<Dish> {
        let request: FetchRequest<Dish> = Dish.fetchRequest()
        request.predicate = try predicate(for: text)
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Dish.name, ascending: true, caseInsensitive: true)]
        return request
    }
    // endregion: fetch-request
}
