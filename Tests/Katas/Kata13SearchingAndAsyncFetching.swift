import Foundation
import KataSupport
import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 13 — Searching and asynchronous fetching. Katas 1–3: a search field's words become a predicate that
/// ignores case and accents (1), wants every word, in any order (2), and takes `%`, `_` and quotes literally (3).
/// Katas 4–6: the search runs as an asynchronous fetch with a progress (4), a new search or closing the screen
/// cancels the running one (5), and a search in a background context hands only IDs to the main queue, with the same
/// progress and cancelling (6).
///
/// Completions run on the context's queue; for the view context that is the main queue, which runs while a kata
/// waits. Every wait here has a time limit.
final class Kata13SearchingAndAsyncFetching: KataCase {
    override class var lesson: Int { 13 }
    override class var folder: String { "13-searching-and-async-fetching" }
    override class func makeModel() throws -> ManagedObjectModel { try CookbookModel.shared() }

    // MARK: Helpers

    /// Saves the cookbook's menu, last dish first, so that the store's own order is not the order by name.
    private func saveMenu() throws {
        for name in CookbookModel.menu.reversed() {
            Dish(context: context).name = name
        }
        try context.save()
    }

    /// The names of the dishes `DishSearch.fetchRequest(matching:)` finds for `text`, in the order fetched.
    private func found(_ text: String) throws -> [String] {
        let request = try DishSearch.fetchRequest(matching: text)
        return try context.fetch(request).map(\.name)
    }

    /// Fails unless the search for `text` finds exactly `expected`; `missing` says why a dish might be missing.
    private func expectSearch(_ text: String, finds expected: [String], inOrder: Bool = false, missing: String) throws {
        let got = try found(text)
        let query = "searching \(String(reflecting: text))"
        if Set(got) == Set(expected) {
            guard inOrder else { return }
            try expect(got == expected, "\(query) found the right dishes in the order \(got); the screen lists them "
                + "by name, ignoring case: \(expected). Does the fetch request sort by name, case-insensitively?")
            return
        }
        let extra = got.filter { !expected.contains($0) }
        let absent = expected.filter { !got.contains($0) }
        if !absent.isEmpty {
            let what = got.isEmpty ? "nothing" : "\(got), without \(absent)"
            try expect(false, "\(query) should find \(expected) but found \(what). \(missing)")
        }
        try expect(false, "\(query) should find only \(expected) but also found \(extra). Each of those has only "
            + "some of the words in its name: every word must match (AND), not any of them (OR).")
    }

    /// What `resultsDidChange` saw: how often it ran, and whether always on the main thread. It may be called on
    /// another queue by mistake, hence the lock.
    private final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var offMain = false
        func record() { lock.withLock { count += 1; offMain = offMain || !Thread.isMainThread } }
        var made: Int { lock.withLock { count } }
        var allOnMain: Bool { lock.withLock { !offMain } }
    }

    /// Like `expect`, for a check about another function of the kata's file than the one the kata names.
    private func expect(_ condition: Bool, in function: String, _ message: String, filePath: StaticString = #filePath,
                        line: UInt = #line) throws {
        guard !condition else { return }
        fail(message, function: function, filePath: filePath, line: line)
        throw KataStop()
    }

    /// Waits until `progress` is complete — the fetch under it has read every row — without letting the main queue
    /// run, so the fetch's completion, which runs there, has not run yet (five seconds at most). Returns whether it
    /// completed.
    private func readAll(_ progress: Progress) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 5)
        while progress.fractionCompleted < 1 {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    /// Lets the main queue run until everything queued there so far has run: the completions of fetches that have
    /// finished reading among them.
    private func drainMainQueue() {
        let drained = LockedBox(false)
        DispatchQueue.main.async { drained.value = true }
        _ = eventually { drained.value }
    }

    /// A screen whose `resultsDidChange` is counted in `calls`.
    private func makeScreen(_ calls: Calls) -> DishSearchScreen {
        let screen = DishSearchScreen(container: container)
        screen.resultsDidChange = { calls.record() }
        return screen
    }

    // MARK: Building the predicate

    func test01_caseAndAccentsAreIgnored() {
        kata(1, in: "DishSearch.swift", "predicate(for:)") {
            try saveMenu()
            try expectSearch("Crème Brûlée", finds: ["Crème Brûlée"], missing: "That is the dish's exact name: "
                + "does the predicate compare the name with each word using CONTAINS, with %@ for the word?")
            try expectSearch("crème brûlée", finds: ["Crème Brûlée"], missing: "The words are in lower case and "
                + "the name is not: the comparison must ignore case — the [c] after the operator.")
            try expectSearch("creme brulee", finds: ["Crème Brûlée"], missing: "The words have no accents and the "
                + "name has: the comparison must ignore diacritics as well as case — [cd], not only [c].")
            try expectSearch("CRÈME", finds: ["Crème Brûlée", "CRÈME CARAMEL"], missing: "The word is in "
                + "capitals: the comparison must ignore case.")
            try expectSearch("brulee", finds: ["Crème Brûlée"], missing: "\"Brûlée\" is the second word of the "
                + "name: a word may appear anywhere in the name — CONTAINS, not BEGINSWITH.")
            try expectSearch("jalapeno crepe pho", finds: [], missing: "")
            try expectSearch("PHO", finds: ["Phở Broth (v2_final)"], missing: "\"Phở\" has a diacritic under "
                + "and over the o: [cd] ignores both, and case too.")
        }
    }

    func test02_everyWordMustMatchInAnyOrder() {
        kata(2, in: "DishSearch.swift", "predicate(for:)") {
            try saveMenu()
            try expectSearch("tart chocolate", finds: ["Chocolate Tart"], missing: "The words are in another "
                + "order than in the name: each word is a condition of its own (one CONTAINS[cd] per word), not "
                + "the whole text as one.")
            try expectSearch("chocolat tart", finds: ["Chocolate Tart", "Tarte au Chocolat"], inOrder: true,
                           missing: "Both names contain both words, in different orders: one condition per word.")
            try expectSearch("  crème   brûlée ", finds: ["Crème Brûlée"], missing: "The text has extra spaces. "
                + "Cutting it at every single space leaves empty words, and CONTAINS \"\" matches nothing: keep "
                + "only the words.")
            try expectSearch("crème\tbrûlée\n", finds: ["Crème Brûlée"], missing: "A tab and a line break separate "
                + "words too (pasted text has them): cut the text at any whitespace, not only at spaces.")
            try expectSearch("tart", finds: ["Chocolate Tart", "Lemon Tart", "Tarte au Chocolat"], inOrder: true,
                           missing: "Each of these names contains \"tart\".")
            // Ignoring case, "ch" comes before "cr"; minding it, "CR" comes before "Ch".
            try expectSearch("ar", finds: ["Chocolate Tart", "CRÈME CARAMEL", "Lemon Tart", "Tarte au Chocolat"],
                           inOrder: true, missing: "Each of these names contains \"ar\", whatever the case.")
            try expectSearch("", finds: CookbookModel.menu, missing: "An empty search field shows every dish: with "
                + "no words, there is no condition (a nil predicate).")
            try expectSearch("   ", finds: CookbookModel.menu, missing: "A search field with only spaces has no "
                + "words: it shows every dish, like an empty one. Empty words must not become conditions.")
        }
    }

    func test03_percentUnderscoreAndQuotesMatchLiterally() {
        kata(3, in: "DishSearch.swift", "predicate(for:)") {
            try saveMenu()
            // A name with a backslash, as users type them: an escape character in a format string, never in a value.
            Dish(context: context).name = "AC\\DC Burger"
            try context.save()
            let cases: [(text: String, finds: [String], missing: String)] = [
                ("100%", ["100% Rye Bread"], "The word ends in %."),
                ("v2_final", ["Phở Broth (v2_final)"], "The word holds an underscore."),
                ("mom's", ["Mom's Apple Pie"], "The word holds an apostrophe."),
                ("\"sunday\"", ["Nonna's \"Sunday\" Ragù"], "The word holds double quotes."),
                ("a's", ["Nonna's \"Sunday\" Ragù"], "The word holds an apostrophe."),
                ("ac\\", ["AC\\DC Burger"], "The word ends in a backslash."),
                ("\\dc", ["AC\\DC Burger"], "The word starts with a backslash."),
            ]
            for search in cases {
                do {
                    try expectSearch(search.text, finds: search.finds, missing: search.missing + " It must be "
                        + "matched as it is: pass each word as an argument (%@) of the format, never as part of it.")
                } catch let error as FetchPredicateError {
                    try expect(false, "searching \(String(reflecting: search.text)) threw a syntax error: the word "
                        + "was written into the format string, where its quote ended a string early. Put %@ in the "
                        + "format and pass the word as an argument: arguments are bound as values, never parsed. (In "
                        + "Core Data this mistake raises an exception that crashes the app — or, with a crafted "
                        + "word, changes the predicate.) The error:\n\(error)")
                }
            }
            // No name holds "r?e", but "Rye" and "Tarte" match it as a LIKE pattern, where ? stands for any letter.
            let pattern = try found("r?e")
            try expect(pattern.isEmpty, "searching \"r?e\" found \(pattern), though no name holds \"r?e\": the word "
                + "was taken as a pattern, where ? and * stand for any letters (LIKE). CONTAINS[cd] with the word as "
                + "its argument has no wildcards: every character means itself.")
        }
    }

    // MARK: Fetching asynchronously

    func test04_searchRunsAsynchronouslyWithProgress() {
        kata(4, in: "DishSearchScreen.swift", "search(_:)") {
            try saveMenu()
            let calls = Calls()
            let screen = makeScreen(calls)
            let progress = try screen.search("tart")
            try expect(calls.made == 0, "resultsDidChange already ran before search(_:) returned: the search ran "
                + "synchronously, and the screen waited for it. Execute an AsynchronousFetchRequest on the context: "
                + "execute returns at once, and its completion block delivers the results later.")
            try expect(screen.results.isEmpty, "search(_:) set results before returning: they must come from the "
                + "asynchronous fetch's completion block, once the fetch is done.")
            // Keep the main queue busy, as a screen drawing would: an asynchronous fetch reads its rows elsewhere
            // meanwhile, and the progress that was current while it started moves with them.
            let busyUntil = Date(timeIntervalSinceNow: 5)
            while progress.fractionCompleted < 1, !progress.isCancelled, Date() < busyUntil {
                Thread.sleep(forTimeInterval: 0.01)
            }
            try expect(progress.fractionCompleted == 1 && calls.made == 0, "the main queue was kept busy after "
                + "search(_:) returned, and the progress it returned stayed at "
                + "\(Int(progress.fractionCompleted * 100)) % for 5 seconds: no rows were read meanwhile, or the "
                + "progress does not follow them. A fetch put off until the main queue is free (main.async, perform) "
                + "still freezes the screen while it reads, and a progress completed by hand in the completion cannot "
                + "show the rows coming in, nor can cancelling it stop the read. The fetch must read elsewhere while "
                + "the main queue works, reporting to the progress search(_:) returns.")
            try expect(eventually { calls.made > 0 }, "no results within 5 seconds: resultsDidChange never ran. Does "
                + "the completion block set results from finalResult and then call resultsDidChange?")
            let names = screen.results.map(\.name)
            let expected = ["Chocolate Tart", "Lemon Tart", "Tarte au Chocolat"]
            try expect(Set(names) == Set(expected), "searching \"tart\" showed \(names), not \(expected): use "
                + "DishSearch.fetchRequest(matching:) for the asynchronous fetch (katas 1–3).")
            try expect(names == expected, "searching \"tart\" showed \(names), not sorted by name as \(expected): "
                + "the asynchronous fetch must use the fetch request of DishSearch.fetchRequest(matching:), sort "
                + "descriptors and all.")
            try expect(calls.allOnMain, "resultsDidChange ran off the main thread: the completion block of a fetch on "
                + "the view context runs on the main queue — call it there.")
            try expect(progress.totalUnitCount != 0 || progress.completedUnitCount != 0, "the progress search(_:) "
                + "returned counts nothing (0 of 0): a stand-in for the fetch's own progress? The "
                + "result's progress is optional, and nil unless a progress is current while execute runs. Make a "
                + "progress of your own current (becomeCurrent) around execute, resign it afterwards, and return that one.")
            let percent = Int(progress.fractionCompleted * 100)
            try expect(!progress.isCancelled && progress.fractionCompleted == 1, "the search is over, but the "
                + "progress search(_:) returned is at \(percent) % (\(progress.completedUnitCount) of "
                + "\(progress.totalUnitCount)): the fetch's progress is not its child. Make a progress of your own current "
                + "(becomeCurrent) while execute runs, resign it afterwards, and return that one — on Apple "
                + "platforms the result's own progress is nil unless a progress is current.")
        }
    }

    func test05_aNewSearchOrClosingCancelsTheRunningOne() {
        kata(5, in: "DishSearchScreen.swift", "search(_:)") {
            try saveMenu()
            let calls = Calls()
            let screen = makeScreen(calls)
            // The user types "c", "cr", then "crème b": three searches, one after the other, none shown yet. The
            // first one's fetch has read all its rows by the time the second starts (the kata waits for that, and
            // keeps the main queue from running meanwhile): its completion, still to come, brings dishes.
            let first = try screen.search("c")
            try expect(readAll(first), "the first search's progress did not reach 100 % within five seconds, though "
                + "its fetch reads a handful of dishes: the fetch's progress is not a child of the progress "
                + "search(_:) returned (kata 4 first).")
            let second = try screen.search("cr")
            let third = try screen.search("crème b")
            try expect(eventually { calls.made > 0 && third.fractionCompleted >= 1 }, "no results within 5 seconds "
                + "after three searches: resultsDidChange never ran (kata 4 first).")
            drainMainQueue()
            try expect(first.isCancelled && second.isCancelled, "three searches were started one after the other, "
                + "and the progress of the first two was not cancelled: each new search must cancel the one before "
                + "it (cancel its progress). Otherwise a slower, older answer can replace the newest one.")
            try expect(!third.isCancelled, "the last search was cancelled: cancel the search that was running "
                + "before the new one starts, not the new one.")
            try expect(calls.made == 1, "resultsDidChange ran \(calls.made) times for three searches of which two "
                + "were cancelled. A cancelled search's completion may still run — with no finalResult, or with the dishes "
                + "of a fetch that had finished reading before the cancel reached it: check your own progress for "
                + "that search (isCancelled) in the completion, and leave results alone then.")
            let names = screen.results.map(\.name)
            try expect(names == ["Crème Brûlée"], "after typing \"crème b\" the screen shows \(names), not "
                + "[\"Crème Brûlée\"]: only the last search's answer may be shown.")

            // The user closes the screen while a search runs — one whose fetch has read its rows already.
            let closed = try screen.search("tart")
            try expect(readAll(closed), "the progress of the search for \"tart\" did not reach 100 % within five "
                + "seconds (kata 4 first).")
            screen.cancelSearch()
            drainMainQueue()
            try expect(closed.isCancelled, in: "cancelSearch()", "cancelSearch() did not cancel the running "
                + "search's progress: forgetting the search is not stopping it. Cancel the progress of the search "
                + "that is running.")
            try expect(calls.made == 1 && screen.results.map(\.name) == ["Crème Brûlée"],
                       in: "search(_:) and cancelSearch()", "after cancelSearch() the screen shows "
                + "\(screen.results.map(\.name)) (resultsDidChange ran \(calls.made) times in all): a cancelled search "
                + "must leave the results as they were. Its completion still runs, with no finalResult: return "
                + "without touching results then.")
        }
    }

    func test06_aBackgroundSearchDeliversOnTheMainQueue() {
        kata(6, in: "DishSearchScreen.swift", "searchInBackground(_:)") {
            try saveMenu()
            // A dish the screen's context has not saved: a background context reads the store, so it cannot see it.
            Dish(context: context).name = "Tarte Tatin (draft)"
            let calls = Calls()
            let screen = makeScreen(calls)
            let (progress, log) = try SQLLog.capture { () throws -> Progress in
                let progress = try screen.searchInBackground("tart")
                // Keep the main queue busy, as in kata 4: the rows are read elsewhere meanwhile, and the progress
                // that was current while the fetch started moves with them.
                let busyUntil = Date(timeIntervalSinceNow: 5)
                while progress.fractionCompleted < 1, !progress.isCancelled, Date() < busyUntil {
                    Thread.sleep(forTimeInterval: 0.01)
                }
                try expect(progress.fractionCompleted == 1 && calls.made == 0, "the main queue was kept busy after "
                    + "searchInBackground(_:) returned, and the progress it returned stayed at "
                    + "\(Int(progress.fractionCompleted * 100)) % for 5 seconds: it does not follow the rows the "
                    + "background fetch reads. A progress completed by hand when the results reach the screen says "
                    + "nothing while the rows are read, and cancelling it cannot stop the read. Make the progress "
                    + "you return the parent of the fetch's own, as in kata 4, on the queue where the request is "
                    + "executed.")
                try expect(eventually { calls.made > 0 }, "no results within 5 seconds: resultsDidChange never ran. "
                    + "A fetch completes on its context's queue only while that context exists: keep the background "
                    + "context (a property of the screen), or the fetch is dropped with it.")
                return progress
            }
            try expect(calls.allOnMain, "resultsDidChange ran off the main thread. A background context's fetch "
                + "completes on that context's queue; the screen and its context belong to the main queue — hop "
                + "there (perform on the screen's context) before touching them.")
            let strangers = screen.results.filter { $0.managedObjectContext !== screen.context }
            try expect(strangers.isEmpty, "\(strangers.count) of the \(screen.results.count) dishes shown belong to "
                + "another context (the background one, or none): their values cannot be read on the main queue. "
                + "Fetch object IDs in the background and turn them into objects of the screen's context on the "
                + "main queue.")
            // Read before the kata reads any name: the dishes reached the screen without the store read again.
            let oneByOne = log.faultsFulfilled
            try expect(oneByOne.isEmpty, "handing the \(screen.results.count) IDs to the screen's context read the "
                + "store \(oneByOne.count) more time(s), a dish at a time, on the main queue (the SQL log: \"fault "
                + "fulfilled from database\" for \(oneByOne.prefix(3).joined(separator: ", "))). Looking each ID "
                + "up with a check (existingObject(with:)) reads its row there and then — the very work the background "
                + "fetch took off the main queue. The IDs come from a fetch that just found them: turn each into an "
                + "object without a fetch, a fault the screen fills only when it shows that dish.")
            let names = screen.results.map(\.name)
            let expected = ["Chocolate Tart", "Lemon Tart", "Tarte au Chocolat"]
            try expect(!names.contains("Tarte Tatin (draft)"), "searching \"tart\" in the background showed "
                + "\(names), with a dish the screen's context has not saved: the search ran in the screen's own "
                + "context, which sees its unsaved changes. Run it in a background context of the screen's own — "
                + "that context reads only what is saved.")
            try expect(names == expected, "searching \"tart\" in the background showed \(names), not \(expected): "
                + "use the predicate and sort descriptors of DishSearch.fetchRequest(matching:), and keep the order "
                + "of the IDs.")
            try expect(progress.fractionCompleted == 1, "the search is over, but the progress "
                + "searchInBackground(_:) returned is at \(Int(progress.fractionCompleted * 100)) %: the fetch's "
                + "progress is not its child. Make your progress current on the background context's queue (inside "
                + "performAndWait), where execute runs.")

            // The user types on: "c" has read all its rows (its results not yet shown) when "crème b" starts.
            let shownBefore = calls.made
            let first = try screen.searchInBackground("c")
            try expect(readAll(first), "the progress of a background search for \"c\" did not reach 100 % within "
                + "five seconds, though its fetch reads a handful of dishes.")
            let second = try screen.searchInBackground("crème b")
            try expect(eventually { calls.made > shownBefore && second.fractionCompleted >= 1 }, "no results within "
                + "5 seconds after two background searches: resultsDidChange never ran.")
            drainMainQueue()
            try expect(first.isCancelled && !second.isCancelled, "two background searches were started one after "
                + "the other, and the first one's progress was \(first.isCancelled ? "" : "not ")cancelled, the "
                + "second one's \(second.isCancelled ? "" : "not"): like search(_:), a new search cancels the one "
                + "before it, and only that one. Otherwise a slower, older answer can replace the newest one.")
            let shown = screen.results.map(\.name)
            try expect(calls.made == shownBefore + 1 && shown == ["Crème Brûlée"], "after background searches for "
                + "\"c\" and then \"crème b\" the screen shows \(shown) (resultsDidChange ran "
                + "\(calls.made - shownBefore) times for them). The first search was cancelled after its fetch had "
                + "read its rows: its IDs still reach the main queue, and only your own progress can say the answer "
                + "is no longer wanted — ask it there, before touching results (kata 5).")
        }
    }
}
