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

/// Lesson 11 — Merge rules (document 002). Katas 1–2: rule 1, background work in a private context of its own and a
/// save that reports what it did; 3: rule 2, a picked user handed over by objectID; 4: rule 3.1, a push saved in the
/// background while the main context edits the same post — "Could not merge changes." (133020); 5–7: the three ways
/// out of it.
///
/// The lesson is written in Russian and in English, and so are these messages: `lessons check 11 --lang ru` (or
/// `LESSONS_LANG=ru`) gives them in Russian. Every wait has a time limit.
final class Kata11MergeRules: KataCase {
    override class var lesson: Int { 11 }
    override class var folder: String { "11-merge-rules" }
    override class func makeModel() throws -> ManagedObjectModel { try BlogModel.shared() }

    /// How long a background task, a completion or a merge may take before the kata gives up on it.
    private static let patience: TimeInterval = 5

    /// A value set on one queue and read on another.
    private final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?
        var value: Value? { lock.withLock { stored } }
        func set(_ value: Value) { lock.withLock { stored = value } }
    }

    // MARK: Helpers

    /// Lets the main queue run until everything queued for the view context so far has run.
    private func drainViewContext() throws {
        let reached = Box<Bool>()
        context.perform { reached.set(true) }
        try expect(eventually { reached.value == true }, localized(
            "the main queue did not get free within \(Int(Self.patience)) s: is something waiting on it?",
            ru: "главная очередь не освободилась за \(Int(Self.patience)) с: её что-то блокирует?"))
    }

    /// Users and a post saved through the kata's main context; the post's ID.
    @discardableResult
    private func savedPost(title: String = "Merge rules", users: [String] = []) throws -> ManagedObjectID {
        for name in users { User(context: context).name = name }
        let post = Post(context: context)
        post.title = title
        try context.save()
        return post.objectID
    }

    /// A post as the store has it, read through a context that has seen nothing before.
    private func stored(_ postID: ManagedObjectID) throws -> (title: String, likes: Int64, author: String?) {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            guard let post = try reader.existingObject(with: postID) as? Post else {
                throw KataSetupError(message: "the kata's post is not a Post")
            }
            return (post.title, post.likes, post.author?.name)
        }
    }

    /// The names of the users in the store, sorted.
    private func storedUserNames() throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.fetch(User.fetchRequest()).map(\.name).sorted() }
    }

    /// The push, made by the kata itself: a background context attached to the store changes the post and saves,
    /// on its own queue. Then whatever that save queued for the view context (an automatic merge) has run.
    private func push(_ update: PostUpdate, to postID: ManagedObjectID) throws {
        let background = container.newBackgroundContext()
        let result = Box<Result<Void, any Error>>()
        background.perform {
            result.set(Result {
                guard let post = try background.existingObject(with: postID) as? Post else { return }
                if let title = update.title { post.title = title }
                if let likes = update.likes { post.likes = likes }
                try background.save()
            })
        }
        try expect(eventually { result.value != nil }, localized(
            "the kata's own background save did not finish within \(Int(Self.patience)) s.",
            ru: "фоновое сохранение самой каты не закончилось за \(Int(Self.patience)) с."))
        try result.value!.get()
        try drainViewContext()
    }

    /// The screen's save, which must not fail: a conflict is explained by what the fix was meant to do.
    private func saveScreen(_ screen: PostScreen, fix: String, fixRu: String) throws {
        do {
            try screen.save()
        } catch let notDone as KataNotDone {
            throw notDone
        } catch {
            let code = (error as NSError).code
            try expect(false, code == 133020
                ? localized("save() still fails with 133020 \"Could not merge changes.\": \(fix)",
                            ru: "save() по-прежнему падает с 133020 «Could not merge changes.»: \(fixRu)")
                : localized("save() failed: \(error)", ru: "save() упал: \(error)"))
        }
    }

    // MARK: Rule 1 — each queue its own context

    func test01_backgroundTaskWorksInAPrivateContextOfItsOwn() {
        kata(1, in: "BlogStorage.swift", "backgroundTask(_:)") {
            let storage = BlogStorage(container: container)
            let viewContext = container.viewContext
            let coordinator = container.persistentStoreCoordinator
            let seen = Box<(onMain: Bool, privateQueue: Bool, isView: Bool, parent: Bool, coordinator: Bool,
                            saveError: String?)>()
            storage.backgroundTask { context in
                User(context: context).name = "Ann"
                var saveError: String?
                do { try context.save() } catch { saveError = "\(error)" }
                seen.set((Thread.isMainThread, context.concurrencyType == .privateQueueConcurrencyType, context === viewContext,
                          context.parent != nil, context.persistentStoreCoordinator === coordinator, saveError))
            }
            try expect(eventually(2) { seen.value != nil }, localized(
                "backgroundTask(_:) never ran its block (waited 2 s). It hands the block a new private-queue "
                    + "context and runs the block on that context's queue.",
                ru: "backgroundTask(_:) так и не выполнил свой блок (ждали 2 с). Он должен передать блоку новый "
                    + "контекст с приватной очередью и выполнить блок на очереди этого контекста."))
            let task = seen.value!
            try expect(!task.isView && task.privateQueue, localized(
                "the block was given " + (task.isView ? "the viewContext" : "a main-queue context")
                    + ": rule 1 — the main thread works with the main context, background work with a private one. "
                    + "Work done here would freeze the UI.",
                ru: "блок получил " + (task.isView ? "viewContext" : "контекст главной очереди")
                    + ": правило 1 — на главном потоке работаем с главным контекстом, в фоне — с приватным. "
                    + "Работа здесь заморозила бы интерфейс."))
            try expect(!task.onMain, localized(
                "the block ran on the main thread: a private context's queue is a background one. Did the block "
                    + "run through performAndWait, called from the main thread? backgroundTask(_:) returns at once "
                    + "and lets the context's queue run the block.",
                ru: "блок выполнился на главном потоке, а очередь приватного контекста фоновая. Блок запущен через "
                    + "performAndWait с главного потока? backgroundTask(_:) возвращается сразу, а блок выполняет "
                    + "очередь контекста."))
            try expect(!task.parent && task.coordinator, localized(
                task.parent
                    ? "the task's context has a parent: its saves stop in that parent instead of reaching the "
                        + "store. A background task's context is attached to the store itself."
                    : "the task's context is not attached to the container's store.",
                ru: task.parent
                    ? "у контекста задачи есть родитель: его сохранения остаются в родителе и не доходят до "
                        + "хранилища. Контекст фоновой задачи подключён прямо к хранилищу."
                    : "контекст задачи не подключён к хранилищу контейнера."))
            try expect(task.saveError == nil, localized("the task's save failed: \(task.saveError ?? "")",
                                                        ru: "сохранение в задаче упало: \(task.saveError ?? "")"))
            let users = try storedValues(\User.name)
            try expect(users == ["Ann"], localized("after the task saved Ann, the store holds \(users).",
                                                   ru: "задача сохранила Ann, а в хранилище \(users)."))
        }
    }

    func test02_saveReportsSavedNoChangesOrFailed() {
        kata(2, in: "BlogStorage.swift", "save(in:)") {
            let storage = BlogStorage(container: container)
            // A background context used from the main thread: save(in:) must go onto its queue by itself.
            let background = container.newBackgroundContext()
            let first = storage.save(in: background)
            if case .failed(let notDone as KataNotDone) = first { throw notDone }
            guard case .hasNoChanges = first else {
                try expect(false, localized(
                    "save(in:) of a context without changes reported \(first), not .hasNoChanges: ask the context "
                        + "whether it has anything to save first.",
                    ru: "save(in:) для контекста без изменений вернул \(first), а не .hasNoChanges: сначала "
                        + "спросите контекст, есть ли ему что сохранять."))
                return
            }
            let ann = background.performAndWait { () -> User in
                let user = User(context: background)
                user.name = "Ann"
                return user
            }
            nonisolated(unsafe) let annInBackground = ann
            // The context's queue is busy for a moment, as a background context's queue often is: save(in:) must
            // wait its turn there, not answer before its save has run.
            background.perform { Thread.sleep(forTimeInterval: 0.2) }
            let second = storage.save(in: background)
            guard case .saved = second else {
                let early = localized(
                    " The context had a new user to save: did save(in:) answer before its block ran on the context's "
                        + "queue? A block handed to perform runs later; the status must come from the save itself.",
                    ru: " Контексту было что сохранять — новый пользователь: не вернул ли save(in:) ответ раньше, чем "
                        + "его блок выполнился на очереди контекста? Блок, переданный в perform, выполняется позже, а "
                        + "статус должен прийти от самого сохранения.")
                try expect(false, localized("save(in:) with a new user reported \(second), not .saved.",
                                            ru: "save(in:) с новым пользователем вернул \(second), а не .saved.")
                    + ({ if case .hasNoChanges = second { return early }; return "" }()))
                return
            }
            let users = try storedValues(\User.name)
            try expect(users == ["Ann"], localized(
                "save(in:) reported .saved, but the store holds \(users), not [\"Ann\"]: report .saved after the "
                    + "context's save succeeded, never instead of it.",
                ru: "save(in:) вернул .saved, но в хранилище \(users), а не [\"Ann\"]: .saved сообщают после "
                    + "успешного сохранения контекста, а не вместо него."))
            background.performAndWait {
                annInBackground.name = "Anna"                 // a change the caller holds on to
                _ = User(context: background)                 // no name: the model requires one (1570)
            }
            let third = storage.save(in: background)
            guard case .failed(let error) = third else {
                try expect(false, localized(
                    "saving a user without a name reported \(third), not .failed(error): catch the save's error "
                        + "and report it.",
                    ru: "сохранение пользователя без имени вернуло \(third), а не .failed(error): поймайте ошибку "
                        + "сохранения и сообщите о ней."))
                return
            }
            try expect((error as NSError).code == 1570, localized(
                "the failed save reported \(error), not the save's own error (1570, a missing name).",
                ru: "неудачное сохранение вернуло \(error), а не ошибку самого сохранения (1570, нет имени)."))
            let after = background.performAndWait {
                (dirty: background.hasChanges, annKept: annInBackground.managedObjectContext === background,
                 annName: annInBackground.managedObjectContext == nil ? "" : annInBackground.name)
            }
            try expect(after.annKept, localized(
                "after the failed save, Ann is no longer in her context: reset() forgets every object, and the "
                    + "caller's with them; rollback() keeps them and only undoes the unsaved changes.",
                ru: "после неудачного сохранения Ann больше нет в её контексте: reset() забывает все объекты, в том "
                    + "числе те, что держит вызывающий код; rollback() оставляет их и отменяет только "
                    + "несохранённые изменения."))
            try expect(!after.dirty, localized(
                "after the failed save the context still has changes: the same invalid user would make every "
                    + "later save fail too. Roll the context back to its last save before reporting .failed.",
                ru: "после неудачного сохранения в контексте остались изменения: тот же неверный пользователь "
                    + "сорвёт и все следующие сохранения. Откатите контекст к последнему сохранению, прежде чем "
                    + "вернуть .failed."))
            try expect(after.annName == "Ann", localized(
                "after the rollback Ann's name reads \"\(after.annName)\", not her saved name \"Ann\".",
                ru: "после отката имя Ann читается как «\(after.annName)», а не сохранённое «Ann»."))
        }
    }

    // MARK: Rule 2 — objects stay, objectIDs travel

    func test03_editorTakesThePickedUserByItsObjectID() {
        kata(3, in: "PostEditor.swift", "choose(_:)") {
            // Two users share a name, as users do: the picked one is told apart by its ID, never by its name.
            let postID = try savedPost(users: ["Ann", "Boris", "Boris"])
            // Two screens, each with a main-queue context of its own: the editor and the user picker.
            let editorContext = ManagedObjectContext(.mainQueue)
            editorContext.persistentStoreCoordinator = container.persistentStoreCoordinator
            let pickerContext = ManagedObjectContext(.mainQueue)
            pickerContext.persistentStoreCoordinator = container.persistentStoreCoordinator
            let post = try require(try editorContext.existingObject(with: postID) as? Post, "no post")
            let editor = PostEditor(context: editorContext, post: post)
            let request: FetchRequest<User> = User.fetchRequest()
            request.predicate = FetchPredicate(format: "name == %@", "Boris")
            let borises = try pickerContext.fetch(request)
            // The Boris a fetch by name would not come to first: whatever that fetch finds, the user picked this one.
            let finder = container.newBackgroundContext()
            let firstByName = try require(try finder.performAndWait { try finder.fetch(request).first?.objectID },
                                          "no Boris")
            let boris = try require(borises.first { $0.objectID != firstByName }, "no second Boris")

            try editor.choose(boris)

            let crossed = localized(
                "choose(_:) assigned the picker's own user object: it belongs to the picker's context, and an object "
                    + "never crosses to another context (rule 2). Hand over its objectID and use the editor's "
                    + "context's own copy of the user.",
                ru: "choose(_:) присвоил объект самого экрана выбора: он принадлежит контексту выбора, а объекты между "
                    + "контекстами не передают (правило 2). Передайте objectID и возьмите копию пользователя из "
                    + "контекста редактора.")
            guard let author = editor.post.author else {
                // Persistence does not link objects of two contexts, and the next save says so (134060).
                var code = 0
                do { try editorContext.save() } catch { code = (error as NSError).code }
                try expect(false, code == 134060 ? crossed + localized(
                    " (The editor's save fails with 134060; Core Data would raise an exception at the assignment.)",
                    ru: " (Сохранение редактора падает с 134060; Core Data бросила бы исключение прямо при "
                        + "присваивании.)")
                    : localized(
                        "after choose(Boris) the post has no author. An object the editor's context has not read "
                            + "yet is not registered there: look it up in a way that reads it from the store when "
                            + "needed.",
                        ru: "после choose(Boris) у поста нет автора. Объект, который контекст редактора ещё не "
                            + "читал, в нём не зарегистрирован: найдите его способом, который при необходимости "
                            + "читает из хранилища."))
                return
            }
            try expect(author.managedObjectContext === editorContext, author === boris ? crossed : localized(
                "the post's author is not an object of the editor's context.",
                ru: "автор поста — не объект контекста редактора."))
            try expect(author.name == "Boris", localized("the post's author is \(author.name), not Boris.",
                                                         ru: "автор поста — \(author.name), а не Boris."))
            try expect(author.objectID == boris.objectID, localized(
                "the post's author is called Boris, but it is the other Boris, not the user who was picked: two users "
                    + "may share a name. Only the objectID says which record was picked.",
                ru: "автора поста зовут Boris, но это другой Boris, а не выбранный пользователь: имена у "
                    + "пользователей бывают одинаковые. Какую запись выбрали, говорит только objectID."))
            let beforeSave = try stored(postID)
            try expect(beforeSave.author == nil && editorContext.hasChanges, localized(
                "choose(_:) saved the editor's context: the store's post already has the author \(beforeSave.author ?? "nil"). "
                    + "Choosing an author is part of an edit the user may still cancel, and a save writes the rest of "
                    + "the unfinished edit to the store with it; the editor saves when the user taps \"Save\".",
                ru: "choose(_:) сохранил контекст редактора: у поста в хранилище уже автор \(beforeSave.author ?? "nil"). "
                    + "Выбор автора — часть правки, которую пользователь ещё может отменить, а сохранение записывает в "
                    + "хранилище и всю остальную незаконченную правку; редактор сохраняет, когда пользователь нажмёт "
                    + "«Сохранить»."))
            do {
                try editorContext.save()
            } catch {
                try expect(false, localized("the editor's save failed: \(error)",
                                            ru: "сохранение редактора упало: \(error)"))
            }
            let inStore = try stored(postID)
            try expect(inStore.author == "Boris", localized(
                "after the editor's save the store's post has the author \(inStore.author ?? "nil"), not Boris.",
                ru: "после сохранения редактора у поста в хранилище автор \(inStore.author ?? "nil"), а не Boris."))
            try expect(!pickerContext.hasChanges, localized(
                "choose(_:) changed the picker's context: the picker only hands over the user it picked.",
                ru: "choose(_:) изменил контекст экрана выбора: экран выбора только передаёт выбранного "
                    + "пользователя."))

            // The user creates a new author, Dana, in the picker, which hands her over before saving her: her
            // objectID is still temporary, and no row in the store has it.
            let dana = User(context: pickerContext)
            dana.name = "Dana"
            var refusal: (any Error)?
            do { try editor.choose(dana) } catch { refusal = error }
            let danaStored = try storedUserNames().contains("Dana")
            try expect(!danaStored && pickerContext.hasChanges, localized(
                "handed Dana, a user the picker had not saved yet, choose(_:) saved her "
                    + (danaStored ? "(the store now has her)" : "") + ": it saved the picker's context, which holds "
                    + "the picker's own unfinished work and is the picker's to save. A temporary objectID is the "
                    + "picker's mistake to fix (it saves a new user before handing her over); the editor refuses it.",
                ru: "получив Dana, которую экран выбора ещё не сохранил, choose(_:) сохранил её "
                    + (danaStored ? "(теперь она есть в хранилище)" : "") + ": он сохранил контекст экрана выбора, "
                    + "в котором незаконченная работа этого экрана, и сохранять его — дело экрана выбора. Временный "
                    + "objectID — ошибка экрана выбора (он сохраняет нового пользователя, прежде чем передать); "
                    + "редактор его отвергает."))
            let standIn = editor.post.author
            try expect(standIn?.objectID == boris.objectID && !editorContext.hasChanges, localized(
                "handed Dana, a user the picker had not saved yet, choose(_:) made "
                    + (standIn.map { "\($0.objectID.isTemporaryID ? "an object with her temporary ID" : $0.name)" }
                        ?? "nobody") + " the post's author. Her objectID is temporary: it names no row in the "
                    + "store, and the editor's context cannot find her by it: an object taken for it without a "
                    + "check stands for a row that does not exist (an inaccessible fault, lesson 6: reading it gives "
                    + "empty values or raises). Leave the post as it was (its author Boris) and throw.",
                ru: "получив Dana, которую экран выбора ещё не сохранил, choose(_:) сделал автором поста "
                    + (standIn.map { "\($0.objectID.isTemporaryID ? "объект с её временным ID" : $0.name)" }
                        ?? "никого") + ". Её objectID временный: он не называет ни одной строки хранилища, и контекст "
                    + "редактора не может найти её по нему: объект, полученный по нему без проверки, обозначает "
                    + "строку, которой нет (недоступный фолт, урок 6: чтение даёт пустые значения или исключение). "
                    + "Оставьте пост как был (автор Boris) и бросьте ошибку."))
            try expect(refusal != nil, localized(
                "handed Dana, a user the picker had not saved yet, choose(_:) returned as if she were the author; "
                    + "the post still has Boris. Tell the caller: throw, so that the screen can say the new user must "
                    + "be saved first.",
                ru: "получив Dana, которую экран выбора ещё не сохранил, choose(_:) вернулся так, будто она стала "
                    + "автором, а у поста по-прежнему Boris. Сообщите вызывающему: бросьте ошибку, чтобы экран мог "
                    + "сказать, что нового пользователя сначала надо сохранить."))
            // The picker does what the lesson asks: saves Dana, whose ID is then permanent, and hands her over.
            try pickerContext.save()
            try editor.choose(dana)
            try expect(editor.post.author?.objectID == dana.objectID
                       && editor.post.author?.managedObjectContext === editorContext, localized(
                "once the picker saved Dana and handed her over again, choose(_:) did not make the editor's own copy "
                    + "of her the post's author.",
                ru: "после того как экран выбора сохранил Dana и передал её снова, choose(_:) не сделал автором "
                    + "поста копию Dana из контекста редактора."))
        }
    }

    // MARK: Rule 3.1 — a background save and an edit of the same post

    func test04_aPushMakesTheScreensSaveFailWith133020() {
        kata(4, in: "PushHandler.swift", "apply(_:toPostWithID:completion:)") {
            let postID = try savedPost()
            let storage = BlogStorage(container: container)
            let screen = try PostScreen(container: container, postID: postID, fix: .none)
            try expect(screen.context === container.viewContext && screen.post.managedObjectContext === screen.context,
                       localized("the screen must edit its post in the container's viewContext: look the post up "
                                    + "there by its ID.",
                                 ru: "экран должен редактировать пост во viewContext контейнера: найдите пост там "
                                    + "по его ID."))
            let merging = screen.context.automaticallyMergesChangesFromParent
            try expect(screen.context.mergePolicy as? MergePolicy == .error && !merging, localized(
                "with .none the screen sets nothing up, so the conflict can be seen; its context has the merge "
                    + "policy \(screen.context.mergePolicy) and automatic merging \(merging ? "on" : "off").",
                ru: "при .none экран ничего не настраивает, чтобы конфликт было видно; а у его контекста политика "
                    + "\(screen.context.mergePolicy) и автоматическое слияние \(merging ? "включено" : "выключено")."))
            screen.post.title = "Merge rules, explained"         // the user types; not saved yet

            let outcome = Box<(status: SaveStatus, onMain: Bool)>()
            let calls = Box<Int>()
            PushHandler(storage: storage).apply(PostUpdate(likes: 7), toPostWithID: postID) { status in
                calls.set((calls.value ?? 0) + 1)
                outcome.set((status, Thread.isMainThread))
            }
            try expect(eventually { outcome.value != nil }, localized(
                "apply never called its completion (waited \(Int(Self.patience)) s): call it when the background "
                    + "save is done, whatever it reported.",
                ru: "apply так и не вызвал completion (ждали \(Int(Self.patience)) с): вызовите его, когда фоновое "
                    + "сохранение закончилось, что бы оно ни вернуло."))
            let (status, onMain) = outcome.value!
            if case .failed(let notDone as KataNotDone) = status { throw notDone }
            _ = eventually(0.2) { false }                    // let a second call arrive, if one is coming
            let callCount = calls.value ?? 0
            try expect(callCount == 1, localized(
                "apply called its completion \(callCount) times for one push: the UI would handle the same result "
                    + "\(callCount) times. Call it once, when the background save is done.",
                ru: "apply вызвал completion \(callCount) раз(а) на один push: интерфейс обработает один и тот же "
                    + "результат несколько раз. Вызывайте его один раз, когда фоновое сохранение закончилось."))
            guard case .saved = status else {
                try expect(false, localized("the push reported \(status), not .saved.",
                                            ru: "push вернул \(status), а не .saved."))
                return
            }
            try expect(onMain, localized(
                "apply called its completion on a background thread: the UI hears of the result on the main queue "
                    + "(DispatchQueue.main).",
                ru: "apply вызвал completion на фоновом потоке: интерфейс узнаёт о результате на главной очереди "
                    + "(DispatchQueue.main)."))
            let pushed = try stored(postID)
            try expect(pushed.likes == 7 && pushed.title == "Merge rules", localized(
                "after the push the store's post reads \"\(pushed.title)\", \(pushed.likes) likes, not "
                    + "\"Merge rules\", 7 likes: the push sets only what it carries, on the task context's own copy "
                    + "of the post, and saves.",
                ru: "после push пост в хранилище — «\(pushed.title)», \(pushed.likes) лайков, а не «Merge rules», "
                    + "7 лайков: push меняет только то, что в нём пришло, на копии поста в контексте задачи, и "
                    + "сохраняет."))
            try expect(screen.post.title == "Merge rules, explained", localized(
                "the push changed the screen's own post: it must work on its own context's copy.",
                ru: "push изменил пост самого экрана, а должен работать с копией в своём контексте."))

            let error = try expectError((any Error).self, localized(
                "the screen saved its edit over the push without a word. With no fix (.none) the viewContext's "
                    + "save must fail, and save() must let the error reach the caller.",
                ru: "экран молча сохранил правку поверх push. Без решения (.none) сохранение viewContext должно "
                    + "упасть, а save() — передать ошибку вызывающему.")) {
                try screen.save()
            }
            let nsError = error as NSError
            try expect(nsError.domain == NSCocoaErrorDomain && nsError.code == 133020, localized(
                "screen.save() failed with \(nsError.domain) \(nsError.code), not the merge conflict "
                    + "(NSCocoaErrorDomain 133020, \"Could not merge changes.\"): \(error)",
                ru: "screen.save() упал с \(nsError.domain) \(nsError.code), а не с конфликтом слияния "
                    + "(NSCocoaErrorDomain 133020, «Could not merge changes.»): \(error)"))
            let after = try stored(postID)
            try expect(after.likes == 7 && after.title == "Merge rules", localized(
                "after the failed save the store reads \"\(after.title)\", \(after.likes) likes: a failed save "
                    + "must leave the push as it was.",
                ru: "после неудачного сохранения в хранилище «\(after.title)», \(after.likes) лайков: неудачное "
                    + "сохранение не должно трогать результат push."))

            // The post is deleted on the device, and a push for it arrives afterwards: its lookup finds no row.
            screen.context.rollback()
            let remover = container.newBackgroundContext()
            try remover.performAndWait {
                remover.delete(try remover.existingObject(with: postID))
                try remover.save()
            }
            let late = Box<(status: SaveStatus, onMain: Bool)>()
            let lateCalls = Box<Int>()
            PushHandler(storage: storage).apply(PostUpdate(likes: 8), toPostWithID: postID) { status in
                lateCalls.set((lateCalls.value ?? 0) + 1)
                late.set((status, Thread.isMainThread))
            }
            try expect(eventually { late.value != nil }, localized(
                "a push for a post that was deleted on the device never called its completion (waited "
                    + "\(Int(Self.patience)) s): the spinner waiting for it never stops. A post that is gone is a "
                    + "result too: report it as .failed, with the lookup's error.",
                ru: "push для поста, который на устройстве уже удалён, так и не вызвал completion (ждали "
                    + "\(Int(Self.patience)) с): индикатор, который его ждёт, не остановится никогда. Удалённый пост — "
                    + "тоже результат: сообщите .failed с ошибкой поиска."))
            _ = eventually(0.2) { false }                    // let a second call arrive, if one is coming
            let lateCount = lateCalls.value ?? 0
            try expect(lateCount == 1, localized(
                "a push for a deleted post called its completion \(lateCount) times: call it once.",
                ru: "push для удалённого поста вызвал completion \(lateCount) раз(а): вызывайте его один раз."))
            let (lateStatus, lateOnMain) = late.value!
            guard case .failed = lateStatus else {
                try expect(false, localized(
                    "a push for a post that was deleted on the device reported \(lateStatus), not .failed: nothing "
                        + "was saved, and the caller must not think the likes are stored.",
                    ru: "push для удалённого поста вернул \(lateStatus), а не .failed: ничего не сохранено, и "
                        + "вызывающий не должен думать, что лайки записаны."))
                return
            }
            try expect(lateOnMain, localized(
                "a push for a deleted post called its completion on a background thread: the failure reaches the "
                    + "UI on the main queue too.",
                ru: "push для удалённого поста вызвал completion на фоновом потоке: о неудаче интерфейс тоже узнаёт "
                    + "на главной очереди."))
            let posts = try storedValues(\Post.title)
            try expect(posts.isEmpty, localized(
                "after the push for a deleted post the store holds the posts \(posts): a push does not bring a "
                    + "deleted post back.",
                ru: "после push для удалённого поста в хранилище посты \(posts): push не возвращает удалённый пост."))
        }
    }

    func test05_automaticMergingShowsThePushAndSavesTheEdit() {
        kata(5, in: "PostScreen.swift", "init(container:postID:fix:)") {
            let postID = try savedPost()
            let screen = try PostScreen(container: container, postID: postID, fix: .automaticMerging)
            screen.post.title = "Merge rules, explained"
            try push(PostUpdate(likes: 7), to: postID)
            try expect(screen.post.likes == 7, localized(
                "after the push was saved, the screen still shows \(screen.post.likes) likes: the viewContext did "
                    + "not take the background save in. Solution 1 has the viewContext merge every save made "
                    + "through the store as it happens — not only settle things when it saves itself.",
                ru: "push сохранён, а экран всё ещё показывает \(screen.post.likes) лайков: viewContext не принял "
                    + "фоновое сохранение. Решение 1 — viewContext сам сливает каждое сохранение, дошедшее до "
                    + "хранилища, сразу, а не разбирается только в момент своего сохранения."))
            try expect(screen.post.title == "Merge rules, explained", localized(
                "the merge replaced the screen's unsaved title with \"\(screen.post.title)\": merging keeps the "
                    + "context's own changes.",
                ru: "слияние заменило несохранённый заголовок экрана на «\(screen.post.title)»: при слиянии "
                    + "собственные изменения контекста сохраняются."))
            try saveScreen(screen, fix: "a merged post takes the store's version, so its save no longer conflicts. "
                                + "Values copied into the post by hand change what the screen shows, not the "
                                + "snapshot and version the save compares; let the context merge the save.",
                           fixRu: "после слияния пост получает версию хранилища, и его сохранение больше не "
                                + "конфликтует. Значения, скопированные в пост вручную, меняют то, что видно на "
                                + "экране, но не снимок и версию, которые сравнивает сохранение; пусть сохранение "
                                + "сливает сам контекст.")
            let inStore = try stored(postID)
            try expect(inStore.title == "Merge rules, explained" && inStore.likes == 7, localized(
                "the store reads \"\(inStore.title)\", \(inStore.likes) likes, not the screen's title with the "
                    + "push's 7 likes.",
                ru: "в хранилище «\(inStore.title)», \(inStore.likes) лайков, а не заголовок экрана с 7 лайками "
                    + "из push."))
        }
    }

    func test06_objectTrumpKeepsTheScreensTitleAndThePushedLikes() {
        kata(6, in: "PostScreen.swift", "init(container:postID:fix:)") {
            let postID = try savedPost()
            let screen = try PostScreen(container: container, postID: postID, fix: .objectTrump)
            screen.post.title = "Merge rules, explained"
            // The push changes the title too, and the likes, which the screen did not touch.
            try push(PostUpdate(title: "Merge Rules", likes: 7), to: postID)
            try expect(screen.post.likes == 0, localized(
                "before saving, the screen already shows the push's \(screen.post.likes) likes: the push was merged "
                    + "into the viewContext as it landed (that is solution 1), so the save met no conflict and no "
                    + "merge policy was put to work. Solution 2 merges nothing ahead of time: the screen shows 0 likes "
                    + "until it saves, and the policy settles the conflict at the save.",
                ru: "ещё до сохранения экран показывает \(screen.post.likes) лайков из push: push сразу слит в "
                    + "viewContext (это решение 1), сохранение не встретило конфликта, и политике слияния нечего "
                    + "было разрешать. Решение 2 ничего не сливает заранее: до сохранения экран показывает 0 лайков, а "
                    + "конфликт разрешает политика в момент сохранения."))
            try saveScreen(screen, fix: "the viewContext's merge policy is still .error, the default.",
                           fixRu: "политика слияния viewContext всё ещё .error, по умолчанию.")
            let inStore = try stored(postID)
            try expect(inStore.title == "Merge rules, explained", localized(
                "both changed the title, and the push's \"\(inStore.title)\" won: under the fix of solution 2 the "
                    + "object being saved wins where both changed a property (a store-trumping policy does the "
                    + "opposite).",
                ru: "заголовок меняли оба, и победил заголовок push «\(inStore.title)»: в решении 2 там, где "
                    + "свойство меняли оба, побеждает сохраняемый объект (политика StoreTrump делает наоборот)."))
            try expect(inStore.likes == 7, localized(
                "the store has \(inStore.likes) likes: the push's 7 were overwritten by the screen's stale value. "
                    + "Only the properties the screen changed should win; overwrite writes every property of the "
                    + "object.",
                ru: "в хранилище \(inStore.likes) лайков: 7 из push затёрты устаревшим значением экрана. Побеждать "
                    + "должны только свойства, которые экран менял; overwrite записывает все свойства объекта."))

            // A second edit and a second push, and this time another part of the app saves the viewContext itself:
            // a merge policy belongs to the context, so it settles the conflict whoever saves.
            screen.post.title = "Merge rules, explained again"
            try push(PostUpdate(title: "Merge Rules!", likes: 9), to: postID)
            do {
                try screen.context.save()
            } catch {
                let code = (error as NSError).code
                try expect(false, localized(
                    "the viewContext's own save (not through save()) failed with \(code) after a second push: the "
                        + "screen avoided the first conflict inside its save(), not with the context's merge policy. "
                        + "Solution 2 is the context's policy, set up when the screen opens, and it settles every "
                        + "save of that context.",
                    ru: "сохранение самого viewContext (не через save()) после второго push упало с \(code): первый "
                        + "конфликт экран обошёл внутри своего save(), а не политикой слияния контекста. Решение 2 — "
                        + "политика контекста, заданная при открытии экрана, и она разрешает конфликт при любом "
                        + "сохранении этого контекста."))
            }
            let again = try stored(postID)
            try expect(again.title == "Merge rules, explained again" && again.likes == 9, localized(
                "after the second save the store reads \"\(again.title)\", \(again.likes) likes, not the screen's "
                    + "new title with the push's 9 likes.",
                ru: "после второго сохранения в хранилище «\(again.title)», \(again.likes) лайков, а не новый "
                    + "заголовок экрана с 9 лайками из push."))
        }
    }

    func test07_refreshBeforeSavingKeepsBoth() {
        kata(7, in: "PostScreen.swift", "save()") {
            let postID = try savedPost()
            let screen = try PostScreen(container: container, postID: postID, fix: .refreshBeforeSaving)
            screen.post.title = "Merge rules, explained"
            try push(PostUpdate(title: "Merge Rules", likes: 7), to: postID)
            try expect(screen.post.likes == 0, localized(
                "before save() the screen already shows the push's \(screen.post.likes) likes: the push was merged "
                    + "into the viewContext as it landed (that is solution 1), so nothing was left for a refresh to "
                    + "do. Solution 3 leaves the context as it is and re-reads the post inside save().",
                ru: "ещё до save() экран показывает \(screen.post.likes) лайков из push: push сразу слит в viewContext "
                    + "(это решение 1), и обновлению нечего было делать. Решение 3 не трогает настройки "
                    + "контекста и перечитывает пост внутри save()."))
            // The policy the context has while it saves, seen from inside the save.
            let policyAtSave = Box<String>()
            let watcher = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.willSaveObjectsNotification, object: screen.context, queue: nil
            ) { note in
                guard let saver = note.object as? ManagedObjectContext else { return }
                let policy = saver.mergePolicy as? MergePolicy
                policyAtSave.set(policy == .error ? "" : policy.map { "\($0)" } ?? "\(saver.mergePolicy)")
            }
            defer { NotificationCenter.default.removeObserver(watcher) }
            let errorPolicyBefore = screen.context.mergePolicy as? MergePolicy == .error
            try saveScreen(screen, fix: "solution 3 re-reads the post from the store just before saving, which "
                            + "brings its snapshot up to date.",
                           fixRu: "решение 3 перечитывает пост из хранилища прямо перед сохранением, и его снимок "
                            + "становится актуальным.")
            let used = policyAtSave.value ?? ""
            // A policy set for good is told apart by the save past save() below.
            try expect(used.isEmpty || !errorPolicyBefore, localized(
                "save() saved under the merge policy \(used), switched on for the save: that is solution 2 for one "
                    + "save, not solution 3. A policy settles every conflict of the save, not only the post's: "
                    + "another object the viewContext holds changed, which a background save changed too, would be "
                    + "decided by the policy without a word. Solution 3 re-reads the post alone, and any other "
                    + "conflict still fails with 133020.",
                ru: "save() сохранил с политикой слияния \(used), включённой на время сохранения: это решение 2 для "
                    + "одного сохранения, а не решение 3. Политика разрешает все конфликты сохранения, а не только "
                    + "конфликт поста: любой другой изменённый объект viewContext, который поменяло и фоновое "
                    + "сохранение, политика молча рассудит по-своему. Решение 3 перечитывает только пост, и любой "
                    + "другой конфликт по-прежнему падает с 133020."))
            try expect(screen.post.managedObjectContext === screen.context, localized(
                "after save() the screen's post is no longer in its context: reset() forgets every object. Refresh "
                    + "the post (or all objects) instead, keeping the unsaved changes.",
                ru: "после save() пост экрана больше не в его контексте: reset() забывает все объекты. Вместо этого "
                    + "обновите пост (или все объекты), сохранив несохранённые изменения."))
            let inStore = try stored(postID)
            try expect(inStore.title == "Merge rules, explained", localized(
                "the store's title is \"\(inStore.title)\": the screen's edit was lost. Refreshing without merging "
                    + "changes throws the object's unsaved changes away; keep them on top of the store's values.",
                ru: "в хранилище заголовок «\(inStore.title)»: правка экрана потерялась. Обновление без слияния "
                    + "изменений выбрасывает несохранённые изменения объекта; сохраните их поверх значений "
                    + "хранилища."))
            try expect(inStore.likes == 7 && screen.post.likes == 7, localized(
                "the push's 7 likes did not survive the screen's save (store: \(inStore.likes), screen: "
                    + "\(screen.post.likes)).",
                ru: "7 лайков из push не пережили сохранение экрана (хранилище: \(inStore.likes), экран: "
                    + "\(screen.post.likes))."))

            // A second edit and a second push, saved past save(): the fix of solution 3 lives in save(), and the
            // context itself keeps the default policy — so this save must still meet the conflict.
            screen.post.title = "Merge rules, explained again"
            try push(PostUpdate(likes: 9), to: postID)
            var code: Int?
            do { try screen.context.save() } catch { code = (error as NSError).code }
            try expect(code == 133020, localized(
                "a save of the viewContext that bypassed save() "
                    + (code.map { "failed with \($0), not with the conflict 133020" } ?? "went through over a newer push")
                    + ": the screen changed its context (a merge policy, or automatic merging) instead of refreshing "
                    + "the post in save(). Solution 3 is for when the context's policy should stay as it is.",
                ru: "сохранение viewContext в обход save() "
                    + (code.map { "упало с \($0), а не с конфликтом 133020" } ?? "прошло поверх более нового push")
                    + ": экран изменил настройки контекста (политику слияния или автоматическое слияние), а не "
                    + "обновил пост в save(). Решение 3 — для случая, когда политику контекста менять не хочется."))
        }
    }
}
