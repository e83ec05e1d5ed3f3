import Foundation
import KataSupport
import Persistence

// Lesson 11's runnable example: document 002's rules. On a podcast library: a feed import as background work in a
// private context of its own — a save, nothing left to save, a failed save rolled back. On flashcards: a deck made
// in the background handed to the main context by objectID. On the podcast library again: the conflict "Could not merge changes." (133020) the other way round from the document's story —
// the player saves an episode while a feed sync that read it earlier is still running, and the sync's late save
// fails — then the three ways out of it, and what every merge policy keeps. `swift run lessons run 11`.

/// The example speaks the lesson's language: `LESSONS_LANG=ru swift run lessons run 11` (or a Russian `LANG`) prints
/// it in Russian.
let russian: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if let language = environment["LESSONS_LANG"] { return language == "ru" }
    return (environment["LC_ALL"] ?? environment["LANG"] ?? "").hasPrefix("ru")
}()

/// The English or the Russian text, whichever the example speaks.
func t(_ english: String, _ russianText: String) -> String { russian ? russianText : english }

/// A loaded container for `model` on a private in-memory store.
func makeContainer(_ name: String, _ model: ManagedObjectModel) throws -> PersistentContainer {
    let container = PersistentContainer(name: name, managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    nonisolated(unsafe) var loadError: (any Error)?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

/// Lets the main queue run — as an app's main run loop does all the time — until `done()` or two seconds have
/// passed.
func runMainQueue(until done: () -> Bool) {
    let deadline = Date() + 2
    while !done() && Date() < deadline {
        RunLoop.main.run(until: Date() + 0.01)
    }
}

/// A value handed from one thread to another.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    var value: Value? { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}

// MARK: - Rule 1

print(t("1. Each queue its own context: background work in a private context of its own",
        "1. У каждой очереди свой контекст: фоновая работа — в собственном приватном контексте"))
// Rule 1 on a podcast library: a feed import, done once, in a background task of its own.
let podcasts = try makeContainer(PodcastModel.name, PodcastModel.shared())
let reports = Box<[String]>()
// region: background-task
podcasts.performBackgroundTask { context in
    // A private-queue context made for this task; this block runs on its queue, never on the main thread.
    let isPrivate = context.concurrencyType == .privateQueueConcurrencyType
    var lines = [t("task runs on the main thread: \(Thread.isMainThread), in a \(isPrivate ? "private" : "main")-queue context",
                   "задача на главном потоке: \(Thread.isMainThread), контекст на \(isPrivate ? "своей" : "главной") очереди")]
    var imported: [Episode] = []
    for (number, title) in [(1, "Pilot"), (2, "Queues"), (3, "Contexts")] {
        let episode = Episode(context: context)
        episode.number = number
        episode.title = title
        imported.append(episode)
    }
    do {
        try context.save()
        lines.append(t("the feed's three episodes: saved; left to save: \(context.hasChanges)",
                       "три эпизода из ленты: сохранено; осталось сохранить: \(context.hasChanges)"))
    } catch {
        lines.append(t("the feed's three episodes: failed", "три эпизода из ленты: ошибка"))
    }
    Episode(context: context).number = 4               // the feed's fourth item has no title: the model requires one
    do {
        try context.save()
    } catch {
        lines.append(t("a fourth episode without a title: the save failed (\((error as NSError).code))",
                       "четвёртый эпизод без заголовка: сохранение упало (\((error as NSError).code))"))
        context.rollback()                              // back to the last save, or every later save fails too
    }
    let kept = imported.allSatisfy { $0.managedObjectContext === context }
    lines.append(t("after rollback: left to save: \(context.hasChanges); the saved episodes still in the context: \(kept)",
                   "после rollback: осталось сохранить: \(context.hasChanges); сохранённые эпизоды в контексте: \(kept)"))
    // The UI hears about it on the main queue, with plain values.
    DispatchQueue.main.async { reports.set(lines) }
}
// endregion: background-task
runMainQueue { reports.value != nil }
for line in reports.value ?? [t("the background task did not report", "фоновая задача ничего не сообщила")] { print("   " + line) }
let byNumber: FetchRequest<Episode> = Episode.fetchRequest()
byNumber.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
let titles = try podcasts.viewContext.fetch(byNumber).map(\.title)
print(t("   the main context reads from the store: ", "   главный контекст читает из хранилища: ") + "\(titles)")

// MARK: - Rule 2

print("")
print(t("2. Objects stay in their context; an objectID crosses",
        "2. Объекты остаются в своём контексте, а objectID можно передавать"))
// Rule 2 where the ID crosses a queue, not a screen: a background task makes a deck of flashcards, and the main
// context moves a card it holds into that deck.
let cards = try makeContainer(FlashcardsModel.name, FlashcardsModel.make())
let card = Flashcard(context: cards.viewContext)
card.front = "bonjour"
try cards.viewContext.save()
let importer = cards.newBackgroundContext()
nonisolated(unsafe) var madeThere: FlashcardDeck?
let deckID = try importer.performAndWait {
    let deck = FlashcardDeck(context: importer)
    deck.code = "fr"
    deck.name = "French"
    try importer.save()
    madeThere = deck
    return deck.objectID                              // a value: it may go to any queue
}
// region: object-across
card.deck = madeThere                                 // wrong: the deck belongs to the importer's context (and queue)
// endregion: object-across
do {
    try cards.viewContext.save()
    print(t("   gave the card the importer's deck as it is: saved?!", "   отдали карточке колоду импортёра как есть: сохранилось?!"))
} catch {
    print(t("   gave the card the importer's deck as it is: the save fails",
            "   отдали карточке колоду импортёра как есть: сохранение падает") + " (\((error as NSError).code))")
    print("     \((error as NSError).localizedDescription)")
    cards.viewContext.rollback()
}
// region: object-id
card.deck = cards.viewContext.object(with: deckID) as? FlashcardDeck  // the main context's own copy of the deck
try cards.viewContext.save()
// endregion: object-id
let check = cards.newBackgroundContext()
let deckName = check.performAndWait { (try? check.existingObject(with: card.objectID) as? Flashcard)?.deck?.name }
print(t("   gave it the main context's own copy, looked up by objectID: saved; the store's deck: ",
        "   отдали копию из главного контекста, найденную по objectID: сохранено; колода в хранилище: ")
      + (deckName ?? t("none", "нет")))

// MARK: - Rule 3.1

/// The collision of rule 3.1 the other way round, on a podcast library with a fresh store: here the background saves
/// last. A feed sync keeps a private context for as long as it runs and reads the three episodes when it starts.
/// While it downloads the feed, the player marks episode 2 as listened — and, when `playerRenames`, gives it a title
/// of the listener's own — and saves the main context at once. Then the sync writes the feed's titles and saves.
/// `prepare` sets the sync's context up when the sync starts; `beforeSave` runs on its queue just before it saves.
func syncWhilePlayerSaves(playerRenames: Bool, prepare: (ManagedObjectContext) -> Void = { _ in },
                          beforeSave: (ManagedObjectContext) -> Void = { _ in }) throws -> [String] {
    let container = try makeContainer(PodcastModel.name, PodcastModel.shared())
    for (number, title) in [(1, "Pilot"), (2, "Queues"), (3, "Contexts")] {
        let episode = Episode(context: container.viewContext)
        episode.number = number
        episode.title = title
    }
    try container.viewContext.save()
    let second: FetchRequest<Episode> = Episode.fetchRequest()
    second.predicate = FetchPredicate(format: "number == 2")

    // region: conflict
    // The katas' collision the other way round: here the main context saves first, and the background save, made
    // last, is the one that fails.
    let sync = container.newBackgroundContext()        // lives as long as the sync runs
    nonisolated(unsafe) var held: [Episode] = []
    sync.performAndWait {
        prepare(sync)
        held = (try? sync.fetch(Episode.fetchRequest())) ?? []   // snapshots taken now, when the sync starts
    }

    let playing = try container.viewContext.fetch(second)[0]
    playing.listened = true                            // meanwhile the listener finishes episode 2…
    if playerRenames { playing.title = "Queues (my notes)" }
    try container.viewContext.save()                   // …and the player saves at once

    let feed = [1: "Pilot", 2: "Queues and threads", 3: "Contexts"]
    let lines: [String] = sync.performAndWait {
        for episode in held { episode.title = feed[episode.number] ?? episode.title }
        let mine = held.first { $0.number == 2 }
        var lines = [t("sync before saving: episode 2 listened: \(mine?.listened ?? false)",
                       "синхронизация до сохранения: эпизод 2 прослушан: \(mine?.listened ?? false)")]
        beforeSave(sync)
        do {
            try sync.save()                            // the late save: the sync's snapshots are older than the row
            lines.append(t("sync saved", "синхронизация сохранилась"))
        } catch {
            let error = error as NSError
            lines.append(t("sync's save failed: ", "сохранение синхронизации упало: ")
                         + "\(error.domain) \(error.code) \"\(error.localizedDescription)\"")
        }
        return lines
    }
    // endregion: conflict

    let reader = container.newBackgroundContext()
    let store = reader.performAndWait {
        guard let episode = try? reader.fetch(second).first else { return t("no episode 2", "эпизода 2 нет") }
        return t("\"\(episode.title)\", listened: \(episode.listened)",
                 "«\(episode.title)», прослушан: \(episode.listened)")
    }
    return lines + [t("store: episode 2 ", "в хранилище: эпизод 2 ") + store]
}

print("")
print(t("3. The player saves while a feed sync is under way; the sync saves last",
        "3. Плеер сохраняет, пока идёт синхронизация ленты; синхронизация сохраняет последней"))
for line in try syncWhilePlayerSaves(playerRenames: false) { print("   " + line) }

print("")
print(t("   Solution 1: the sync's context merges the player's save as it happens",
        "   Решение 1: контекст синхронизации сразу сливает сохранение плеера"))
// region: fix-automatic
let merged = try syncWhilePlayerSaves(playerRenames: false, prepare: { sync in
    sync.automaticallyMergesChangesFromParent = true  // its parent here: the coordinator
})
// endregion: fix-automatic
for line in merged { print("   " + line) }

print("")
print(t("   Solution 2: the sync's changes win at its save (the player renamed episode 2 too)",
        "   Решение 2: при сохранении побеждают изменения синхронизации (плеер тоже переименовал эпизод 2)"))
// region: fix-policy
let feedWins = try syncWhilePlayerSaves(playerRenames: true, prepare: { sync in
    sync.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
})
// endregion: fix-policy
for line in feedWins { print("   " + line) }

print("")
print(t("   Solution 3: refresh every episode before saving (the player renamed episode 2 too)",
        "   Решение 3: refresh всех эпизодов перед сохранением (плеер тоже переименовал эпизод 2)"))
// region: fix-refresh
let refreshed = try syncWhilePlayerSaves(playerRenames: true, beforeSave: { sync in
    sync.refreshAllObjects()                           // each registered episode, its unsaved titles kept
})
// endregion: fix-refresh
for line in refreshed { print("   " + line) }

print("")
print(t("4. What each merge policy of the sync keeps (player: title and listened; sync: title)",
        "4. Что оставляет каждая политика слияния синхронизации (плеер: заголовок и «прослушан»; синхронизация: заголовок)"))
for (name, policy) in [("error", MergePolicy.error), ("mergeByPropertyObjectTrump", .mergeByPropertyObjectTrump),
                       ("mergeByPropertyStoreTrump", .mergeByPropertyStoreTrump), ("overwrite", .overwrite),
                       ("rollback", .rollback)] {
    let lines = try syncWhilePlayerSaves(playerRenames: true, prepare: { $0.mergePolicy = policy })
    print("   " + name.padding(toLength: 27, withPad: " ", startingAt: 0) + (lines.last ?? ""))
}
