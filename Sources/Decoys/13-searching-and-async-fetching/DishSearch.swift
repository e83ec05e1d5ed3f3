import Foundation
import KataSupport
// Persistence-only: FetchSortDescriptor(…, caseInsensitive:), where Core Data takes a selector (lesson 13).
@_spi(SortCaseFolding) import Persistence

/// Lesson 13's ``DishSearch`` with known mistakes (see `Decoy`).
public enum DishSearch {
    public static func predicate(for text: String) throws -> FetchPredicate? {
        // Mistake: the text is cut at every single space, so two spaces make an empty word, and CONTAINS "" matches
        // nothing — nor does a blank search.
        // Mistake: the text is cut at spaces only (empty pieces dropped), so a tab or a line break joins two words.
        let words = Decoy.isActive("search-empty-words")
            ? text.components(separatedBy: " ")
            : Decoy.isActive("search-split-at-spaces-only")
            ? text.split(separator: " ").map(String.init)
            : text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        // Mistake: the whole text is one term, so the words must appear together and in that order.
        if Decoy.isActive("search-whole-phrase") {
            return FetchPredicate(format: "name CONTAINS[cd] %@", text)
        }
        let terms = words.map { word -> FetchPredicate in
            // Mistake: the word is written into the format string; a quote in it ends the string early.
            if Decoy.isActive("search-format-interpolated") {
                return FetchPredicate(format: "name CONTAINS[cd] '\(word)'")
            }
            // Mistake: the word's apostrophes are escaped with a backslash and the word written into the format
            // between quotes: a word that ends in a backslash escapes the closing quote.
            if Decoy.isActive("search-escaped-into-format") {
                let escaped = word.replacingOccurrences(of: "'", with: "\\'")
                return FetchPredicate(format: "name CONTAINS[cd] '\(escaped)'")
            }
            // Mistake: LIKE with the word between stars; a ? or * in the word is a wildcard, not itself.
            if Decoy.isActive("search-like-wildcards") {
                return FetchPredicate(format: "name LIKE[cd] %@", "*\(word)*")
            }
            // Mistakes: case still matters and accents too; or accents still matter; or the word must start the name.
            let format = Decoy.isActive("search-case-sensitive") ? "name CONTAINS %@"
                : Decoy.isActive("search-case-only") ? "name CONTAINS[c] %@"
                : Decoy.isActive("search-begins-with") ? "name BEGINSWITH[cd] %@"
                : "name CONTAINS[cd] %@"
            return FetchPredicate(format: format, word)
        }
        // Mistake: any word is enough, where every word must match.
        if Decoy.isActive("search-any-word") { return CompoundPredicate(orPredicateWithSubpredicates: terms) }
        return CompoundPredicate(andPredicateWithSubpredicates: terms)
    }

    public static func fetchRequest(matching text: String) throws -> FetchRequest<Dish> {
        let request: FetchRequest<Dish> = Dish.fetchRequest()
        request.predicate = try predicate(for: text)
        // Mistake: no sort; the store's order is whatever it is.
        if Decoy.isActive("search-sort-case-sensitive") {
            // Mistake: the sort minds case, so names in capitals come before the others.
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Dish.name, ascending: true)]
        } else if !Decoy.isActive("search-unsorted") {
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Dish.name, ascending: true, caseInsensitive: true)]
        }
        return request
    }
}
