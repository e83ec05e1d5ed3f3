import Foundation
import KataSupport
import Persistence

// Lesson 11's runnable example: document 002's rules on a small blog. Background work in a private context of its
// own, with a save that reports what it did; a user picked on another screen handed over by objectID; and the
// conflict "Could not merge changes." (133020) when a push changes the post the main context is editing — then the
// three ways out of it, and what every merge policy keeps. `swift run lessons run 11`.

/// The example speaks the lesson's language: `LESSONS_LANG=ru swift run lessons run 11` (or a Russian `LANG`) prints
/// it in Russian.
let russian: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if let language = environment["LESSONS_LANG"] { return language == "ru" }
    return (environment["LC_ALL"] ?? environment["LANG"] ?? "").hasPrefix("ru")
}()

/// The English or the Russian text, whichever the example speaks.
func t(_ english: String, _ russianText: String) -> String { russian ? russianText : english }

/// A loaded container on a private in-memory store.
func makeContainer() throws -> PersistentContainer {
    let container = PersistentContainer(name: BlogModel.name, managedObjectModel: try BlogModel.shared())
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

/// What a save did, as document 002's storage reports it.
enum Status: CustomStringConvertible {
    case saved, hasNoChanges, failed(Int)

    var description: String {
        switch self {
        case .saved: return "saved"
        case .hasNoChanges: return "hasNoChanges"
        case .failed(let code): return t("failed (\(code)), rolled back", "failed (\(code)), откат")
        }
    }
}

/// Saves `context` and reports what happened; a failed save is rolled back. Call it on the context's queue (this
/// example only calls it inside the context's own blocks).
func save(_ context: ManagedObjectContext) -> Status {
    if !context.hasChanges { return .hasNoChanges }
    do {
        try context.save()
    } catch {
        context.rollback()
        return .failed((error as NSError).code)
    }
    return .saved
}

/// A post's title and likes as the store has them, read through a context that has seen nothing before.
func stored(_ postID: ManagedObjectID, in container: PersistentContainer) -> String {
    let reader = container.newBackgroundContext()
    return reader.performAndWait {
        guard let post = try? reader.existingObject(with: postID) as? Post else { return t("no post", "поста нет") }
        return t("\"\(post.title)\", \(post.likes) likes", "«\(post.title)», лайков: \(post.likes)")
    }
}

// MARK: - Rule 1

print(t("1. Each queue its own context: background work in a private context of its own",
        "1. У каждой очереди свой контекст: фоновая работа — в собственном приватном контексте"))
let blog = try makeContainer()
let reports = Box<[String]>()
// region: background-task
blog.performBackgroundTask { context in
    // A private-queue context made for this task; this block runs on its queue, never on the main thread.
    let isPrivate = context.concurrencyType == .privateQueueConcurrencyType
    var lines = [t("task runs on the main thread: \(Thread.isMainThread), in a \(isPrivate ? "private" : "main")-queue context",
                   "задача на главном потоке: \(Thread.isMainThread), контекст на \(isPrivate ? "своей" : "главной") очереди")]
    for name in ["Ann", "Boris"] {
        User(context: context).name = name
    }
    // save(_:), defined above, reports what happened rather than throwing.
    lines.append(t("save with two new users: ", "сохраняем двух новых пользователей: ") + "\(save(context))")
    lines.append(t("save again, nothing new: ", "сохраняем ещё раз, ничего нового: ") + "\(save(context))")
    _ = User(context: context)                          // no name: the model requires one
    lines.append(t("save a user without a name: ", "сохраняем пользователя без имени: ") + "\(save(context)); "
                 + t("has changes: ", "есть изменения: ") + "\(context.hasChanges)")
    // The UI hears about it on the main queue, with plain values.
    DispatchQueue.main.async { reports.set(lines) }
}
// endregion: background-task
runMainQueue { reports.value != nil }
for line in reports.value ?? [t("the background task did not report", "фоновая задача ничего не сообщила")] { print("   " + line) }
let users = try blog.viewContext.fetch(User.fetchRequest()).map(\.name).sorted()
print(t("   the main context reads from the store: ", "   главный контекст читает из хранилища: ") + "\(users)")

// MARK: - Rule 2

print("")
print(t("2. Objects stay in their context; an objectID crosses",
        "2. Объекты остаются в своём контексте, а objectID можно передавать"))
let writing = blog.viewContext
let draft = Post(context: writing)
draft.title = "Merge rules"
try writing.save()
// The editor and the user picker are two screens, each with a main-queue context of its own.
let editorContext = ManagedObjectContext(.mainQueue)
editorContext.persistentStoreCoordinator = blog.persistentStoreCoordinator
let pickerContext = ManagedObjectContext(.mainQueue)
pickerContext.persistentStoreCoordinator = blog.persistentStoreCoordinator
guard let edited = try editorContext.existingObject(with: draft.objectID) as? Post else {
    throw NotAPost(draft.objectID)
}
let request: FetchRequest<User> = User.fetchRequest()
request.predicate = FetchPredicate(format: "name == %@", "Ann")
let picked = try pickerContext.fetch(request)[0]   // Ann, as the picker hands her back: its own object
// region: object-across
edited.author = picked                             // wrong: the user belongs to the picker's context
// endregion: object-across
do {
    try editorContext.save()
    print(t("   assigned the picker's user as it is: saved?!", "   присвоили пользователя с экрана выбора как есть: сохранилось?!"))
} catch {
    print(t("   assigned the picker's user as it is: the save fails", "   присвоили пользователя с экрана выбора как есть: сохранение падает")
          + " (\((error as NSError).code))")
    print("     \((error as NSError).localizedDescription)")
    editorContext.rollback()
}
// region: object-id
edited.author = try editorContext.existingObject(with: picked.objectID) as? User  // the editor's own copy
try editorContext.save()
// endregion: object-id
let check = blog.newBackgroundContext()
let author = check.performAndWait { (try? check.existingObject(with: draft.objectID) as? Post)?.author?.name }
print(t("   assigned the editor's own copy, looked up by objectID: saved; the store's author: ",
        "   присвоили копию из контекста редактора, найденную по objectID: сохранено; автор в хранилище: ")
      + (author ?? t("none", "нет")))

// MARK: - Rule 3.1

/// The story of rule 3.1 on a fresh store: a post is on the edit screen (the main context) and its title is being
/// edited, when a push changes the same post in the background — its likes, and its title too when `pushTitle`.
/// `configure` sets the screen's context up; `beforeSave` runs just before the screen saves.
func editWhilePushLands(pushTitle: Bool, configure: (ManagedObjectContext) -> Void = { _ in },
                        beforeSave: (ManagedObjectContext, Post) -> Void = { _, _ in }) throws -> [String] {
    let container = try makeContainer()
    let viewContext = container.viewContext
    configure(viewContext)
    let seed = Post(context: viewContext)
    seed.title = "Merge rules"
    try viewContext.save()
    let postID = seed.objectID

    // region: conflict
    guard let post = try viewContext.existingObject(with: postID) as? Post else { throw NotAPost(postID) }
    post.title = "Merge rules, explained"              // the user types on the edit screen (not saved yet)

    let pushed = DispatchSemaphore(value: 0)
    container.performBackgroundTask { context in       // meanwhile a push arrives and is saved in the background
        let same = try? context.existingObject(with: postID) as? Post
        same?.likes = 7
        if pushTitle { same?.title = "Merge Rules" }
        _ = save(context)
        pushed.signal()
    }
    pushed.wait()
    // endregion: conflict

    var lines: [String] = []
    let landed = Box<Bool>()
    viewContext.perform { landed.set(true) }           // after whatever the save queued for the main queue
    runMainQueue { landed.value == true }
    lines.append(t("screen before saving: \"\(post.title)\", \(post.likes) likes",
                   "экран до сохранения: «\(post.title)», лайков: \(post.likes)"))
    beforeSave(viewContext, post)
    do {
        try viewContext.save()
        lines.append(t("screen saved; store: ", "экран сохранён; в хранилище: ") + stored(postID, in: container))
    } catch {
        let error = error as NSError
        lines.append(t("save failed: ", "сохранение упало: ") + "\(error.domain) \(error.code) \"\(error.localizedDescription)\"")
        lines.append(t("store keeps the push: ", "в хранилище остался пуш: ") + stored(postID, in: container))
    }
    return lines
}

print("")
print(t("3. A push saves the post the main context is editing",
        "3. Пуш сохраняет пост, который в это время правят в главном контексте"))
for line in try editWhilePushLands(pushTitle: false) { print("   " + line) }

print("")
print(t("   Solution 1: the main context merges saves automatically",
        "   Решение 1: главный контекст сам вливает чужие сохранения"))
// region: fix-automatic
let automatic = try editWhilePushLands(pushTitle: false, configure: { viewContext in
    viewContext.automaticallyMergesChangesFromParent = true
})
// endregion: fix-automatic
for line in automatic { print("   " + line) }

print("")
print(t("   Solution 2: mergeByPropertyObjectTrump (the push changed the title too)",
        "   Решение 2: mergeByPropertyObjectTrump (пуш поменял и заголовок)"))
// region: fix-policy
let objectTrump = try editWhilePushLands(pushTitle: true, configure: { viewContext in
    viewContext.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
})
// endregion: fix-policy
for line in objectTrump { print("   " + line) }

print("")
print(t("   Solution 3: refresh before saving (the push changed the title too)",
        "   Решение 3: refresh перед сохранением (пуш поменял и заголовок)"))
// region: fix-refresh
let refreshed = try editWhilePushLands(pushTitle: true, beforeSave: { viewContext, post in
    viewContext.refresh(post, mergeChanges: true)      // or viewContext.refreshAllObjects()
})
// endregion: fix-refresh
for line in refreshed { print("   " + line) }

print("")
print(t("4. What each merge policy keeps (screen: title; push: title and likes)",
        "4. Что оставляет каждая политика слияния (экран: заголовок; пуш: заголовок и лайки)"))
for (name, policy) in [("error", MergePolicy.error), ("mergeByPropertyObjectTrump", .mergeByPropertyObjectTrump),
                       ("mergeByPropertyStoreTrump", .mergeByPropertyStoreTrump), ("overwrite", .overwrite),
                       ("rollback", .rollback)] {
    let lines = try editWhilePushLands(pushTitle: true, configure: { $0.mergePolicy = policy })
    print("   " + name.padding(toLength: 27, withPad: " ", startingAt: 0) + (lines.last ?? ""))
}
