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

/// Lesson 15 — Lists that follow the store: the fetched results controller. A mail app's inbox screen shows what a
/// controller fetched, in sections by folder, drawing each row once (kata 1), with a section index that tells
/// "taxes" from "travel" (2); the inbox makes its controller with the right request on the view context (3); the
/// screen then follows the controller's callbacks alone — an update redraws its own row, found by the right index
/// path (4), deletions go before insertions (5), messages move between folders that appear and empty (6), the mail
/// sync's saves arrive merged (7), and any seeded sequence of changes leaves the screen equal to a fresh fetch
/// (8); showing only unread mail needs a new fetch (9); a list fed by snapshots draws again the messages that
/// changed, which the controller's snapshot does not mark (10); and a contact renamed, which the controller does not
/// report, redraws the rows of their messages (11).
final class Kata15FetchedResults: KataCase {
    override class var lesson: Int { 15 }
    override class var folder: String { "15-fetched-results" }
    override class func makeModel() throws -> ManagedObjectModel { try model.get() }

    private static let model = Result { try MailModel.make() }

    /// The kata's controllers, kept for the length of the kata: a controller that is gone tells nobody anything.
    private var controllers: [AnyObject] = []

    override func tearDownWithError() throws {
        controllers = []
        try super.tearDownWithError()
    }

    /// The inbox's order: by folder (the section key, first), the newest message first in each.
    private static var inboxOrder: [FetchSortDescriptor] {
        [FetchSortDescriptor(key: "folder", ascending: true), FetchSortDescriptor(key: "received", ascending: false)]
    }

    // MARK: The mail

    /// One message to save: its subject (unique in a kata), sender, folder, time and whether it is unread.
    private typealias Mail = (subject: String, sender: String, folder: String, received: Int, unread: Bool)

    /// Twelve messages in four folders; no two arrived at the same time.
    private let standardMail: [Mail] = [
        ("Lunch on Friday", "Ada", "inbox", 100, true),
        ("Your parcel is on its way", "Post Office", "inbox", 96, false),
        ("Minutes of Monday", "Grace", "inbox", 90, true),
        ("Re: the lamp", "Alan", "inbox", 85, false),
        ("Welcome!", "Mail", "inbox", 10, false),
        ("Tax return 2024", "Revenue", "taxes", 70, true),
        ("Receipt: accountant", "Linus", "taxes", 40, false),
        ("Boarding pass", "Airline", "travel", 80, true),
        ("Hotel booking", "Hotel", "travel", 50, false),
        ("Sprint review", "Barbara", "work", 95, true),
        ("Build is green", "CI", "work", 60, false),
        ("Offsite agenda", "Margaret", "work", 30, false),
    ]

    /// Saves `mail` through `context` (the kata's view context by default); returns the messages by subject.
    @discardableResult
    private func save(_ mail: [Mail], in context: ManagedObjectContext? = nil) throws -> [String: MailMessage] {
        let context = context ?? self.context
        var messages: [String: MailMessage] = [:]
        for item in mail {
            messages[item.subject] = insert(item, in: context)
        }
        try context.save()
        return messages
    }

    private func insert(_ item: Mail, in context: ManagedObjectContext) -> MailMessage {
        let message = MailMessage(context: context)
        message.subject = item.subject
        message.sender = item.sender
        message.folder = item.folder
        message.received = item.received
        message.unread = item.unread
        return message
    }

    /// The kata's message with this subject.
    private func message(_ subject: String, in messages: [String: MailMessage]) throws -> MailMessage {
        try require(messages[subject], "the kata's own message \"\(subject)\" is missing.")
    }

    // MARK: The kata's own controller

    /// A controller the kata trusts, over `context`'s messages in sections by folder, telling `screen`: fetched,
    /// not yet shown.
    private func followingController(_ screen: InboxScreen, in context: ManagedObjectContext? = nil,
                                     unreadOnly: Bool = false) throws -> FetchedResultsController<MailMessage> {
        let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
        request.sortDescriptors = Self.inboxOrder
        if unreadOnly { request.predicate = FetchPredicate(format: "unread == YES") }
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context ?? self.context,
                                                  sectionNameKeyPath: "folder", cacheName: nil)
        controller.delegate = screen
        try controller.performFetch()
        controllers.append(controller)
        return controller
    }

    /// A controller the kata trusts, as ``followingController(_:in:unreadOnly:)``, that counts how often its results
    /// are read once the screen has shown them: fetched, not yet shown.
    private func watchedController(_ screen: InboxScreen, in context: ManagedObjectContext? = nil) throws
        -> ResultsReadCounter {
        let request = FetchRequest<any FetchRequestResult>(entityName: "MailMessage")
        request.sortDescriptors = Self.inboxOrder
        let controller = ResultsReadCounter(fetchRequest: request, managedObjectContext: context ?? self.context,
                                            sectionNameKeyPath: "folder", cacheName: nil)
        controller.delegate = screen
        try controller.performFetch()
        controllers.append(controller)
        return controller
    }

    /// A screen showing a controller of the kata's over the view context's messages, which counts the screen's
    /// reads of its results from then on.
    private func followedScreen() throws -> (InboxScreen, ResultsReadCounter) {
        let screen = InboxScreen()
        let controller = try watchedController(screen)
        try screen.show(controller.sections ?? [])
        try expect(!screen.sections.isEmpty, "show(_:) left the screen empty; the inbox has mail. Build a section "
            + "for each section the controller fetched, with a row drawn for each of its messages.")
        controller.counting = true
        return (screen, controller)
    }

    /// Fails when the screen read the controller's whole results (sections or fetchedObjects) since the last check.
    private func expectReadNoResults(_ controller: ResultsReadCounter, _ when: String,
                                     filePath: StaticString = #filePath, line: UInt = #line) throws {
        let reads = controller.reads
        controller.reads = 0
        try expect(reads == 0, "\(when), the screen read the controller's results (sections or fetchedObjects) "
            + "\(reads) time(s). The screen was shown the results once; from then on the callbacks say what changed, "
            + "at which index paths, and the screen applies exactly that. Rebuilding the rows from the controller's "
            + "results gives the right list whatever the index paths say, so a wrong index path never shows here — "
            + "but a table view on a device applies the batch at those index paths, and checks each section's row "
            + "count against them.", filePath: filePath, line: line)
    }

    /// A screen showing a controller of the kata's over the view context's messages.
    private func shownScreen() throws -> (InboxScreen, FetchedResultsController<MailMessage>) {
        let screen = InboxScreen()
        let controller = try followingController(screen)
        try screen.show(controller.sections ?? [])
        try expect(!screen.sections.isEmpty, "show(_:) left the screen empty; the inbox has mail. Build a section "
            + "for each section the controller fetched, with a row drawn for each of its messages.")
        return (screen, controller)
    }

    // MARK: What a fresh fetch shows

    private typealias FreshSection = (name: String, messages: [MailMessage])

    /// What a fresh fetch of `context` (the view context by default) shows: folders and their messages in the
    /// inbox's order.
    private func fresh(in context: ManagedObjectContext? = nil, unreadOnly: Bool = false) throws -> [FreshSection] {
        let context = context ?? self.context
        let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
        request.sortDescriptors = Self.inboxOrder
        if unreadOnly { request.predicate = FetchPredicate(format: "unread == YES") }
        var sections: [FreshSection] = []
        for message in try context.fetch(request) {
            if sections.last?.name == message.folder {
                sections[sections.count - 1].messages.append(message)
            } else {
                sections.append((message.folder, [message]))
            }
        }
        return sections
    }

    /// Rows as they were drawn, for messages: the text only (a row's message may be gone since).
    private func describe(_ rows: [InboxRow]) -> String {
        "[" + rows.map { "\"\($0.text)\"" }.joined(separator: ", ") + "]"
    }

    private func describe(_ messages: [MailMessage]) -> String {
        "[" + messages.map { "\"\(InboxRow.text(for: $0))\"" }.joined(separator: ", ") + "]"
    }

    /// The first way `shown` differs from a fresh fetch, or nil when it shows exactly that.
    private func difference(_ shown: [InboxSection], from expected: [FreshSection]) -> String? {
        let names = shown.map(\.name)
        let expectedNames = expected.map(\.name)
        if names != expectedNames {
            return "the screen's sections are \(names); a fresh fetch has \(expectedNames)"
        }
        for (section, fresh) in zip(shown, expected) {
            let sameMessages = section.rows.count == fresh.messages.count
                && zip(section.rows, fresh.messages).allSatisfy { $0.message === $1 }
            if !sameMessages {
                return "section \"\(section.name)\" shows \(describe(section.rows)); a fresh fetch has "
                    + describe(fresh.messages)
            }
            for (index, (row, message)) in zip(section.rows, fresh.messages).enumerated()
            where row.text != InboxRow.text(for: message) {
                return "row \(index) of \"\(section.name)\" still reads \"\(row.text)\", but its message now reads "
                    + "\"\(InboxRow.text(for: message))\": the change was never drawn"
            }
        }
        return nil
    }

    /// Fails unless `screen` shows exactly what a fresh fetch shows; `when` says after what, `hint` what to check.
    private func expectShowsAFreshFetch(_ screen: InboxScreen, _ expected: [FreshSection], _ when: String,
                                        hint: String, filePath: StaticString = #filePath, line: UInt = #line) throws {
        guard let difference = difference(screen.sections, from: expected) else { return }
        try expect(false, "\(when), \(difference). \(hint)", filePath: filePath, line: line)
    }

    /// Rows drawn while `body` runs.
    private func drawing<T>(_ body: () throws -> T) rethrows -> (T, drawn: Int) {
        let before = InboxRow.drawCount
        let result = try body()
        return (result, InboxRow.drawCount - before)
    }

    /// Fails when `drawn` rows were drawn for `changed` changed messages.
    private func expectDrew(_ drawn: Int, atMost changed: Int, _ when: String, filePath: StaticString = #filePath,
                            line: UInt = #line) throws {
        try expect(drawn <= changed, "\(when), the screen drew \(drawn) rows for \(changed) changed message(s). "
            + "A screen that follows the controller draws only the rows it is told about — the inserted, moved and "
            + "updated messages — and keeps every other row as it is; fetching again (performFetch) or drawing the "
            + "controller's whole results at controllerDidChangeContent gives the right rows the slow way, and "
            + "throws away what the callbacks said.", filePath: filePath, line: line)
    }

    // MARK: Waiting, with a time limit

    // MARK: Showing what was fetched

    func test01_showDrawsTheFetchedSectionsOnce() {
        kata(1, in: "InboxScreen.swift", "show(_:)") {
            try save(standardMail)
            let screen = InboxScreen()
            let controller = try followingController(screen)
            let (_, drawn) = try drawing { try screen.show(controller.sections ?? []) }
            try expectShowsAFreshFetch(screen, try fresh(), "after show(_:)",
                                       hint: "Make one InboxSection per section the controller hands you — its name, "
                                           + "in the same order — with a row drawn (InboxRow(drawing:)) for each of the "
                                           + "section's objects, in their order.")
            let titles = screen.sections.map(\.indexTitle)
            let controllerTitles = (controller.sections ?? []).map(\.indexTitle)
            try expect(titles == controllerTitles, "the screen's index titles are \(titles), the controller's "
                + "sections have \(controllerTitles). A section's entry in the index is the controller's to give "
                + "(indexTitle of each section info), so that the screen and the controller's sectionIndexTitles "
                + "always agree; do not make up titles in the screen.")
            try expect(drawn == standardMail.count, "show(_:) drew \(drawn) rows for \(standardMail.count) messages: "
                + "draw each message's row once.")
        }
    }

    func test02_theIndexTellsTaxesFromTravel() {
        kata(2, in: "InboxScreen.swift", "controller(_:sectionIndexTitleForSectionName:)") {
            try save(standardMail)
            let (screen, controller) = try shownScreen()
            let expected = ["In", "Ta", "Tr", "Wo"]
            let index = controller.sectionIndexTitles
            try expect(index == expected, "the controller's section index is \(index), not \(expected): the app "
                + "shows two letters per folder, so that \"taxes\" and \"travel\" get an entry each. The controller "
                + "asks its delegate for each section's index title when it makes the section; working the titles "
                + "out in the screen alone leaves the controller's index (sectionIndexTitles, "
                + "section(forSectionIndexTitle:at:)) with its default, the first letter.")
            let shown = screen.sections.map(\.indexTitle)
            try expect(shown == expected.map { Optional($0) }, "the screen's sections have the index titles \(shown), "
                + "not \(expected): take each section's indexTitle from the controller's section info.")
        }
    }

    // MARK: The inbox's controller

    /// Why making the inbox failed, when the error says.
    private func explainInboxError(_ error: any Error) throws -> Never {
        if error is KataNotDone { throw error }
        let text = String(describing: error)
        if text.contains("out of order section name") {
            try expect(false, "Inbox(container:) failed: performFetch() threw \(text). With sections by folder, the "
                + "request's first sort descriptor must sort by the section key — folder — so that each folder's "
                + "messages come together; the newest-first order goes after it. (Core Data fails the same way, with "
                + "error 134060.)")
        }
        if text.contains("requires a fetch request with sort descriptors") {
            try expect(false, "Inbox(container:) failed: performFetch() threw \(text). A fetched results controller "
                + "needs sort descriptors: by folder first (the section key), then newest first. (Core Data raises "
                + "this from the controller's initializer.)")
        }
        try expect(false, "Inbox(container:) threw an error: \(text)")
        throw KataStop()
    }

    func test03_theInboxFetchesOnTheViewContextSortedByFolderFirst() {
        kata(3, in: "Inbox.swift", "init(container:)") {
            try save(standardMail)
            let inbox: Inbox
            do {
                inbox = try Inbox(container: container)
            } catch {
                try explainInboxError(error)
            }
            let controller = inbox.controller
            try expect(controller.managedObjectContext === container.viewContext, "the inbox's controller fetches "
                + "from and follows a context that is not the container's view context — a background context? A "
                + "screen's controller belongs on the view context: its objects are read on the main queue, where "
                + "the screen draws them, and the user's changes, made there, must reach it.")
            try expect(controller.sectionNameKeyPath == "folder", "the controller's sectionNameKeyPath is "
                + "\(controller.sectionNameKeyPath.map { "\"\($0)\"" } ?? "nil"): the inbox has a section per folder.")
            try expect(controller.fetchedObjects != nil, "the inbox's controller has no results: nothing is fetched "
                + "until performFetch() runs, and until then the controller follows no change either.")
            let descriptors = controller.fetchRequest.sortDescriptors ?? []
            let order = descriptors.map(\.description)
            try expect(descriptors.first?.key == "folder", "the request sorts by \(order): "
                + "the section key, folder, must come first.")
            try expect(controller.delegate === inbox.screen, "the controller's delegate is not the inbox's screen, "
                + "so no change will reach it. Set the delegate before performFetch().")
            try expectShowsAFreshFetch(inbox.screen, try fresh(), "after Inbox(container:)",
                                       hint: "Folders go in alphabetical order, the newest message (highest received) "
                                           + "first in each: sort by folder, then by received, descending; and show "
                                           + "the results once they are fetched.")
        }
    }

    // MARK: Following the callbacks

    /// What each batch kata says when the screen missed the batch altogether.
    private let appliesNothing = "If the screen did not change at all, its delegate methods apply nothing yet: keep "
        + "what each callback tells between controllerWillChangeContent and controllerDidChangeContent, and apply "
        + "it there."

    func test04_anUpdateRedrawsOnlyItsOwnRow() {
        kata(4, in: "InboxScreen.swift", "controller(_:didChange:at:for:newIndexPath:)") {
            let messages = try save(standardMail)
            let (screen, watched) = try followedScreen()

            // A message is read: it keeps its place, its row changes.
            try message("Minutes of Monday", in: messages).unread = false
            let (_, drawn) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(screen, try fresh(), "after \"Minutes of Monday\" was read",
                                       hint: "A change that leaves a message where it was is an update: redraw its "
                                           + "row, and only that row. " + appliesNothing)
            try expectDrew(drawn, atMost: 1, "after one message was read")
            try expectReadNoResults(watched, "after one message was read")

            // In one batch: the newest message goes, and one below it is renamed.
            context.delete(try message("Lunch on Friday", in: messages))
            try message("Re: the lamp", in: messages).subject = "Re: the lamp (fixed)"
            let (_, drawnAgain) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(screen, try fresh(), "after one batch deleted \"Lunch on Friday\" (row 0) and "
                + "renamed \"Re: the lamp\" (row 3, row 2 after the batch)",
                hint: "An update comes at the row's index path before the batch (indexPath: where to redraw) and its "
                    + "place after it (newIndexPath). Reading controller.object(at: indexPath) — as Apple's old "
                    + "sample code did — gives another message once a row above was deleted in the same batch: the "
                    + "controller's results are already the new ones. Draw the object the callback hands you "
                    + "(anObject).")
            try expectDrew(drawnAgain, atMost: 1, "after a batch that deleted one message and renamed another")
            try expectReadNoResults(watched, "after a batch that deleted one message and renamed another")
        }
    }

    func test05_deletionsGoBeforeInsertions() {
        kata(5, in: "InboxScreen.swift", "controllerDidChangeContent(_:)") {
            let messages = try save(standardMail)
            let (screen, watched) = try followedScreen()
            let hint = "A deletion's index path counts rows as they were before the batch, an insertion's as they are "
                + "after it — the order a table view applies a batch in: first every deletion (from the bottom up, "
                + "so the rows above keep their places), then every insertion (from the top down). A move is both: "
                + "out of its old row, into its new one. " + appliesNothing

            // The parcel arrives and leaves the list; a new message lands below where it was.
            context.delete(try message("Your parcel is on its way", in: messages))
            _ = insert(("Coffee?", "Edsger", "inbox", 88, true), in: context)
            let (_, drawn) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(screen, try fresh(), "after one batch deleted row 1 of \"inbox\" and inserted "
                + "\"Coffee?\" at row 2", hint: hint)
            try expectDrew(drawn, atMost: 1, "after a batch that deleted one message and inserted another")
            try expectReadNoResults(watched, "after a batch that deleted one message and inserted another")

            // The oldest message is snoozed to the top while the newest goes.
            try message("Welcome!", in: messages).received = 110
            context.delete(try message("Lunch on Friday", in: messages))
            let (_, drawnAgain) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(screen, try fresh(), "after one batch moved \"Welcome!\" from the bottom of "
                + "\"inbox\" to the top and deleted \"Lunch on Friday\"", hint: hint)
            try expectDrew(drawnAgain, atMost: 1, "after a batch that moved one message and deleted another")
            try expectReadNoResults(watched, "after a batch that moved one message and deleted another")

            // One batch snoozes "Minutes of Monday" to the top and marks it read: one move, and its row reads
            // differently now. Core Data sends no update with a move.
            let minutes = try message("Minutes of Monday", in: messages)
            minutes.received = 120
            minutes.unread = false
            let (_, drawnThird) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(screen, try fresh(), "after one batch snoozed \"Minutes of Monday\" to the top "
                + "of \"inbox\" and marked it read", hint: "A move is the only word the controller says of that "
                    + "message in the batch — Apple: an update is assumed, and no separate update is sent. A row "
                    + "carried to its new place as it was drawn still shows the message as it was: draw the moved "
                    + "message anew where it goes.")
            try expectDrew(drawnThird, atMost: 1, "after a batch that moved one message and marked it read")
            try expectReadNoResults(watched, "after a batch that moved one message and marked it read")
        }
    }

    func test06_filingAMessageMovesItAcrossSections() {
        kata(6, in: "InboxScreen.swift", "controller(_:didChange:atSectionIndex:for:)") {
            let messages = try save([
                ("Lunch on Friday", "Ada", "inbox", 100, true),
                ("Minutes of Monday", "Grace", "inbox", 90, true),
                ("Welcome!", "Mail", "inbox", 10, false),
                ("Receipt: bike shop", "Cycles", "receipts", 45, false),
                ("Sprint review", "Barbara", "work", 95, true),
                ("Build is green", "CI", "work", 60, false),
            ])
            let (screen, controller) = try followedScreen()
            let hint = "A folder that gets its first message is a section inserted (at its index after the batch); "
                + "one that loses its last is a section deleted (at its index before it). The controller reports "
                + "them before the rows: insert and delete sections as a table view does, deleted sections after "
                + "the deleted rows, inserted ones before the inserted rows. " + appliesNothing

            // The receipt goes to "travel": "receipts" empties, "travel" appears in its place.
            try message("Receipt: bike shop", in: messages).folder = "travel"
            let (_, drawn) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(screen, try fresh(), "after the only receipt was filed in \"travel\"",
                                       hint: hint)
            try expectDrew(drawn, atMost: 1, "after one message was filed elsewhere")
            try expectReadNoResults(controller, "after one message was filed elsewhere")
            let titles = screen.sections.map(\.indexTitle)
            let controllerTitles = controller.uncounted { $0.sections ?? [] }.map(\.indexTitle)
            try expect(titles == controllerTitles, "after a new section appeared the screen's index titles are "
                + "\(titles), the controller's \(controllerTitles): a new section's title comes with the section "
                + "info of its insert.")

            // A work message goes to the inbox, between two others.
            try message("Sprint review", in: messages).folder = "inbox"
            context.processPendingChanges()
            try expectShowsAFreshFetch(screen, try fresh(), "after \"Sprint review\" was filed in \"inbox\"",
                                       hint: hint)
            try expectReadNoResults(controller, "after \"Sprint review\" was filed in \"inbox\"")

            // The last work message goes to travel, ahead of the receipt: "work" empties.
            try message("Build is green", in: messages).folder = "travel"
            context.processPendingChanges()
            try expectShowsAFreshFetch(screen, try fresh(), "after the last work message was filed in \"travel\"",
                                       hint: hint)
            try expectReadNoResults(controller, "after the last work message was filed in \"travel\"")
        }
    }

    // MARK: Merged saves

    func test07_theSyncsSavesReachTheScreen() {
        kata(7, in: "Inbox.swift", "init(container:)") {
            try save(standardMail)
            let inbox: Inbox
            do {
                inbox = try Inbox(container: container)
            } catch {
                try explainInboxError(error)
            }
            try expect(inbox.controller.fetchedObjects != nil, "the inbox's controller has no results: nothing is "
                + "fetched until performFetch() runs, and until then the controller follows no change either.")
            let before = InboxRow.drawCount
            // The mail sync, in a background context of its own: one message arrives, one is deleted on another
            // device, one was read there.
            let sync = container.newBackgroundContext()
            try sync.performAndWait {
                let arrived = MailMessage(context: sync)
                arrived.subject = "Flight delayed"
                arrived.sender = "Airline"
                arrived.folder = "travel"
                arrived.received = 120
                for message in try sync.fetch(MailMessage.fetchRequest()) {
                    if message.subject == "Welcome!" { sync.delete(message) }
                    if message.subject == "Sprint review" { message.unread = false }
                }
                try sync.save()
            }
            let merged = eventually {
                inbox.controller.fetchedObjects?.contains { $0.subject == "Flight delayed" } == true
            }
            try expect(merged, "the sync saved a new message, \"Flight delayed\", five seconds ago, and the inbox's "
                + "controller still does not have it. A save in another context reaches the view context only when "
                + "the view context merges it (lesson 9) — and a controller follows what happens in its context, "
                + "merges included. Make the view context merge its parent's saves by itself.")
            let shown = eventually { difference(inbox.screen.sections, from: (try? fresh()) ?? []) == nil }
            if !shown {
                try expectShowsAFreshFetch(inbox.screen, try fresh(), "after the sync's save was merged",
                                           hint: "The controller has the merged changes and told its delegate in one "
                                               + "batch, like any other: the screen applies it as in katas 4–6.")
            }
            let drawn = InboxRow.drawCount - before
            try expectDrew(drawn, atMost: 2, "after the sync's save (one message inserted, one deleted, one read) "
                + "was merged")
            // Another account's mailbox, a store of its own in the same process, saves too: none of it is this
            // inbox's.
            let other = try Self.makeInMemoryContainer(model: try Self.makeModel())
            let otherSync = other.newBackgroundContext()
            let foreignID = try otherSync.performAndWait {
                let foreign = MailMessage(context: otherSync)
                foreign.subject = "Other account's newsletter"
                foreign.sender = "Shop"
                foreign.folder = "inbox"
                foreign.received = 130
                try otherSync.save()
                return foreign.objectID
            }
            // A gate, not a clock: a block queued on the inbox's context now runs after any merge queued by the save.
            let context = inbox.controller.managedObjectContext
            let gate = LockedBox(false)
            context.perform { gate.value = true }
            _ = eventually { gate.value }
            // The user then reads a message here: the view context's next save.
            let saveError: (any Error)? = context.performAndWait {
                inbox.controller.fetchedObjects?.first?.unread = false
                do { try context.save(); return nil } catch { return error }
            }
            let leaked = saveError != nil || context.registeredObject(for: foreignID) != nil
            try expect(!leaked, "another store in the same process saved a message, and the inbox's context took it "
                + "in\(saveError.map { " (its next save threw: \($0))" } ?? ""): its merging hears every context's "
                + "save in the process, not only its own store's. On a device that is another account's mail on "
                + "this screen, or objects of a store this context cannot reach. "
                + "Let the view context merge what its own coordinator's contexts save, and nothing else.")
        }
    }

    // MARK: Any sequence of changes

    /// One seeded run: random changes to the view context's messages and merged saves of a background context,
    /// processed in batches of a few; after each batch the screen must show what a fresh fetch shows, having drawn
    /// no more rows than messages changed.
    private func randomRun(seed: UInt64) throws {
        let container = try Self.makeInMemoryContainer(model: try Self.makeModel())
        let context = container.viewContext
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        var random = SeededRandom(seed: seed)
        let folders = ["inbox", "receipts", "taxes", "travel", "work"]
        var clock = 0
        func newMail() -> Mail {
            clock += 1
            return ("Message \(clock)", ["Ada", "Alan", "Grace"][random.below(3)], folders[random.below(folders.count)],
                    clock, random.below(2) == 0)
        }
        for _ in 0..<20 { _ = insert(newMail(), in: context) }
        try context.save()

        let screen = InboxScreen()
        let controller = try watchedController(screen, in: context)
        try screen.show(controller.sections ?? [])
        controller.counting = true
        let sync = container.newBackgroundContext()
        sync.mergePolicy = MergePolicy.mergeByPropertyObjectTrump

        var batch: [String] = []
        var changed = 0
        var drawnBefore = InboxRow.drawCount
        func live() -> [MailMessage] {
            context.registeredObjects.compactMap { $0 as? MailMessage }.filter { !$0.isDeleted && $0.managedObjectContext != nil }
                .sorted { $0.received < $1.received }
        }
        for step in 0..<90 {
            let messages = live()
            let pick = messages.isEmpty ? nil : messages[random.below(messages.count)]
            switch random.below(17) {
            case 0...2:
                let mail = newMail()
                _ = insert(mail, in: context)
                batch.append("\"\(mail.subject)\" arrived in \(mail.folder)")
                changed += 1
            case 3...4:
                guard let pick else { continue }
                batch.append("\"\(pick.subject)\" deleted from \(pick.folder)")
                context.delete(pick)
            case 5...6:
                guard let pick else { continue }
                clock += 1
                pick.received = clock
                batch.append("\"\(pick.subject)\" snoozed to the top of \(pick.folder)")
                changed += 1
            case 7...9:
                guard let pick else { continue }
                let folder = folders[random.below(folders.count)]
                batch.append("\"\(pick.subject)\" filed from \(pick.folder) in \(folder)")
                pick.folder = folder
                changed += 1
            case 10...11:
                guard let pick else { continue }
                pick.unread.toggle()
                batch.append("\"\(pick.subject)\" marked \(pick.unread ? "unread" : "read")")
                changed += 1
            case 12:
                guard let pick else { continue }
                batch.append("\"\(pick.subject)\" renamed")
                pick.subject += "!"
                changed += 1
            case 13...14:
                // The sync changes saved messages in the background; its save is merged into the view context.
                let ids = messages.map(\.objectID).filter { !$0.isTemporaryID }
                let picks = (0..<1 + random.below(3)).compactMap { _ in ids.isEmpty ? nil : ids[random.below(ids.count)] }
                let arriving = random.below(2) == 0 ? newMail() : nil
                var syncRandom = random.split()
                let (note, done): (Notification?, [String]) = sync.performAndWait {
                    var done: [String] = []
                    for (index, id) in picks.enumerated() where !picks[..<index].contains(id) {
                        guard let message = try? sync.existingObject(with: id) as? MailMessage else { continue }
                        switch syncRandom.below(3) {
                        case 0:
                            done.append("the sync deleted \"\(message.subject)\"")
                            sync.delete(message)
                        case 1:
                            message.folder = folders[syncRandom.below(folders.count)]
                            done.append("the sync filed \"\(message.subject)\" in \(message.folder)")
                        default:
                            message.unread.toggle()
                            done.append("the sync marked \"\(message.subject)\" \(message.unread ? "unread" : "read")")
                        }
                    }
                    if let arriving {
                        _ = insert(arriving, in: sync)
                        done.append("the sync brought \"\(arriving.subject)\" into \(arriving.folder)")
                    }
                    nonisolated(unsafe) var saved: Notification?
                    let token = NotificationCenter.default.addObserver(
                        forName: ManagedObjectContext.didSaveObjectsNotification, object: sync, queue: nil
                    ) { saved = $0 }
                    defer { NotificationCenter.default.removeObserver(token) }
                    do { try sync.save() } catch { sync.rollback() }
                    sync.reset()
                    return (saved, done)
                }
                if let note {
                    context.mergeChanges(fromContextDidSave: note)
                    batch += done
                    changed += done.count
                }
            case 15:
                batch.append("the view context saved")
                do { try context.save() } catch { context.rollback() }
            default:
                break
            }
            guard random.below(3) == 0 || step == 89 else { continue }
            context.processPendingChanges()
            let when = "seed \(seed), step \(step), after a batch (" + batch.joined(separator: "; ") + ")"
            try expectShowsAFreshFetch(screen, try fresh(in: context), when,
                                       hint: "Each batch is applied as one: row deletions at old index paths, then "
                                           + "section deletions, section insertions, row insertions at new index paths; "
                                           + "a move is a deletion and an insertion, an update a row redrawn from the "
                                           + "object handed over.")
            try expectDrew(InboxRow.drawCount - drawnBefore, atMost: changed, when)
            try expectReadNoResults(controller, when)
            batch = []
            changed = 0
            drawnBefore = InboxRow.drawCount
        }
    }

    func test08_anySequenceOfChangesLeavesTheScreenEqualToAFreshFetch() {
        kata(8, in: "InboxScreen.swift", "controllerDidChangeContent(_:)") {
            for seed: UInt64 in [15, 42, 2024] {
                try randomRun(seed: seed)
            }
        }
    }

    // MARK: Changing the request

    func test09_unreadOnlyNeedsANewFetch() {
        kata(9, in: "Inbox.swift", "showUnreadOnly(_:)") {
            let messages = try save(standardMail)
            let inbox: Inbox
            do {
                inbox = try Inbox(container: container)
            } catch {
                try explainInboxError(error)
            }
            try inbox.showUnreadOnly(true)
            let read = (inbox.controller.fetchedObjects ?? []).filter { !$0.unread }.map(\.subject)
            try expect(read.isEmpty, "after showUnreadOnly(true) the controller still holds \(read.count) read "
                + "message(s) (\(read.joined(separator: ", "))). The controller's results are those of its last "
                + "performFetch(): a predicate set on its request afterwards changes nothing already fetched. Set the "
                + "predicate, then fetch again.")
            try expectShowsAFreshFetch(inbox.screen, try fresh(unreadOnly: true), "after showUnreadOnly(true)",
                                       hint: "performFetch() tells a row-by-row delegate nothing — no "
                                           + "controllerWillChangeContent, no changes: after a new fetch, show the new "
                                           + "results, as a table view reloads its data.")

            // Reading a message takes it off the unread list, by the controller's callbacks.
            try message("Tax return 2024", in: messages).unread = false
            let (_, drawn) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(inbox.screen, try fresh(unreadOnly: true), "after \"Tax return 2024\" was read "
                + "while only unread mail shows", hint: "The new predicate decides which changes are deletions: a "
                    + "message read while the list shows unread mail leaves it — and its folder's section with it, "
                    + "when it was the folder's last unread message.")
            try expectDrew(drawn, atMost: 0, "after a message left the unread list")

            try inbox.showUnreadOnly(false)
            try expectShowsAFreshFetch(inbox.screen, try fresh(), "after showUnreadOnly(false)",
                                       hint: "Without a predicate every message shows again: clear it, and fetch again.")
        }
    }

    // MARK: A list fed by snapshots

    /// The first way the list's rows differ from a fresh fetch, or nil when they show exactly that.
    private func listDifference(_ list: SnapshotInbox) throws -> String? {
        difference(list.dataSource.sections, from: try fresh())
    }

    func test10_aSnapshotListRedrawsTheMessagesThatChanged() {
        kata(10, in: "SnapshotInbox.swift", "controller(_:didChangeContentWith:)") {
            let messages = try save(standardMail)
            context.automaticallyMergesChangesFromParent = true
            let list = SnapshotInbox(context: context)
            let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
            request.sortDescriptors = Self.inboxOrder
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "folder", cacheName: nil)
            controllers.append(controller)
            controller.delegate = list
            try controller.performFetch()
            if let difference = try listDifference(list) {
                try expect(false, "after performFetch(), \(difference). The controller hands its delegate a snapshot "
                    + "of every section and message ID at once: apply it to the data source.")
            }
            let advice = "The controller's snapshot lists the same IDs as before: a message that changed keeps its "
                + "ID, and the snapshot marks nothing for reload — so applying it as it comes keeps the old row. Find "
                + "the rows on screen that no longer read as their message (dataSource.row(for:), InboxRow.text(for:)) "
                + "and mark those items with reconfigureItems(_:) before applying the snapshot."

            // The user reads a message: it keeps its place and its ID.
            try message("Minutes of Monday", in: messages).unread = false
            let (_, drawn) = drawing { context.processPendingChanges() }
            if let difference = try listDifference(list) {
                try expect(false, "after \"Minutes of Monday\" was read, \(difference). " + advice)
            }
            try expect(drawn == 1, "after one message was read the list drew \(drawn) rows: mark only the items whose "
                + "message changed; every other row stays as it is.")

            // In one batch: a message is deleted, another is renamed.
            context.delete(try message("Welcome!", in: messages))
            try message("Build is green", in: messages).subject = "Build is red"
            let (_, drawnAgain) = drawing { context.processPendingChanges() }
            if let difference = try listDifference(list) {
                try expect(false, "after one batch deleted \"Welcome!\" and renamed \"Build is green\", "
                    + "\(difference). " + advice)
            }
            try expect(drawnAgain == 1, "after a batch that deleted one message and renamed another the list drew "
                + "\(drawnAgain) rows, not 1 (the renamed one). A message read in an earlier batch and not saved "
                + "since is still isUpdated: what changed in this batch is what its rows no longer show.")
            try context.save()

            // The mail sync marks a message read on another device: the save is merged, and no object of the view
            // context has unsaved changes then.
            let sync = container.newBackgroundContext()
            try sync.performAndWait {
                for message in try sync.fetch(MailMessage.fetchRequest()) where message.subject == "Boarding pass" {
                    message.unread = false
                }
                try sync.save()
            }
            let before = InboxRow.drawCount
            let merged = eventually { (try? message("Boarding pass", in: messages).unread) == false }
            try expect(merged, "the sync's save was not merged into the view context within 5 seconds.")
            settle(0.1)
            if let difference = try listDifference(list) {
                try expect(false, "after the sync's save marked \"Boarding pass\" read and the view context merged it, "
                    + "\(difference). A merged change leaves no unsaved change behind: isUpdated is false by then, "
                    + "so it cannot tell which messages changed. Compare what each row shows with its message. " + advice)
            }
            let drawnByMerge = InboxRow.drawCount - before
            try expect(drawnByMerge == 1, "after the merged save changed one message the list drew \(drawnByMerge) "
                + "rows: mark only the items whose message changed.")
        }
    }

    // MARK: A related object

    func test11_aRenamedContactRedrawsTheRowsOfTheirMessages() {
        kata(11, in: "InboxScreen.swift", "followContacts(of:)") {
            let messages = try save(standardMail + [("Notes on the engine", "Ada", "work", 75, false)])
            let ada = MailContact(context: context)
            ada.name = "Ada Lovelace"
            let grace = MailContact(context: context)
            grace.name = "Grace Hopper"
            for subject in ["Lunch on Friday", "Notes on the engine"] { try message(subject, in: messages).contact = ada }
            try message("Minutes of Monday", in: messages).contact = grace
            try context.save()
            let (screen, controller) = try shownScreen()
            screen.followContacts(of: controller)
            let offMainBefore = InboxRow.drawnOffMain
            let hint = "A row shows its contact's name, and the controller follows messages only: a contact that "
                + "changed changes no message, so no callback comes. Watch the controller's context for changed "
                + "contacts (its did-change notification) and draw again the rows of their messages, where the "
                + "controller holds them (indexPath(forObject:))."

            // Ada's entry is renamed: two rows, in two folders, show her name.
            ada.name = "Ada King"
            let (_, drawn) = drawing {
                context.processPendingChanges()
                context.processPendingChanges()             // a second turn, for a change that itself changes more
            }
            try expectShowsAFreshFetch(screen, try fresh(), "after the contact \"Ada Lovelace\" was renamed "
                + "\"Ada King\"", hint: hint)
            try expectDrew(drawn, atMost: 2, "after a contact with two messages was renamed")
            try context.save()

            // The sync renames Grace on another device, on its own queue; its save is merged into the view context.
            let sync = container.newBackgroundContext()
            let synced = LockedBox<Result<Notification?, any Error>?>(nil)
            DispatchQueue.global().async {
                synced.value = Result {
                    try sync.performAndWait {
                        for contact in try sync.fetch(FetchRequest<MailContact>(entityName: "MailContact"))
                        where contact.name == "Grace Hopper" {
                            contact.name = "Rear Admiral Hopper"
                        }
                        nonisolated(unsafe) var saved: Notification?
                        let token = NotificationCenter.default.addObserver(
                            forName: ManagedObjectContext.didSaveObjectsNotification, object: sync, queue: nil
                        ) { saved = $0 }
                        defer { NotificationCenter.default.removeObserver(token) }
                        try sync.save()
                        return saved
                    }
                }
            }
            try expect(eventually(10) { synced.value != nil }, "the kata's sync did not save within ten seconds.")
            let note = try synced.value!.get()
            let saved = try require(note, "the sync's save posted no did-save notification.")
            try expect(InboxRow.drawnOffMain == offMainBefore, "the sync renamed a contact in its own context, and the "
                + "screen drew \(InboxRow.drawnOffMain - offMainBefore) row(s) off the main queue, before anything was "
                + "merged. The screen heard the sync context's own did-change notification, on the sync's queue: an "
                + "observer registered for every context (object: nil) hears them all. On a device a screen's rows "
                + "are drawn on the main queue only, from the view context's objects. Observe the controller's "
                + "context alone.")
            let (_, drawnByMerge) = drawing {
                context.mergeChanges(fromContextDidSave: saved)
                context.processPendingChanges()
            }
            try expectShowsAFreshFetch(screen, try fresh(), "after the sync renamed \"Grace Hopper\" and the view "
                + "context merged it", hint: "A merged change reaches the context's did-change notification too, "
                    + "but Apple does not say under which key; a merge here reports the contact as refreshed. Look "
                    + "under the updated and the refreshed keys both. " + hint)
            try expectDrew(drawnByMerge, atMost: 1, "after a merged save renamed a contact with one message")
            try expect(InboxRow.drawnOffMain == offMainBefore, "rows were drawn off the main queue while the screen "
                + "followed the contacts: a screen draws on the main queue only.")

            // A second screen over the same mail is closed: it must go, and draw nothing more.
            var closing: InboxScreen? = InboxScreen()
            let itsController = try followingController(try require(closing, "the kata's second screen is gone."))
            try closing?.show(itsController.sections ?? [])
            closing?.followContacts(of: itsController)
            weak var closed: InboxScreen?
            closed = closing
            closing = nil
            try expect(closed == nil, "a screen that was closed is still alive after followContacts(of:): something "
                + "holds it — the block observing the context, if it captures the screen strongly. On a device every "
                + "screen opened and closed stays in memory and keeps drawing for contacts no one sees. Capture the "
                + "screen weakly, and stop observing when it goes (deinit).")
            ada.name = "Ada Byron"
            let (_, drawnAfterClose) = drawing { context.processPendingChanges() }
            try expectShowsAFreshFetch(screen, try fresh(), "after the contact was renamed \"Ada Byron\"", hint: hint)
            try expectDrew(drawnAfterClose, atMost: 2, "after a second screen was closed and a contact with two "
                + "messages renamed (the open screen shows two of their rows)")
        }
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same sequence on every platform.
private struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Another generator, seeded from this one.
    mutating func split() -> SeededRandom {
        SeededRandom(seed: next())
    }
}

/// A controller of the kata's that counts how often its whole results — ``sections`` and ``fetchedObjects`` — are
/// read while ``counting`` is on: a screen that follows the callbacks needs neither after its first show.
private final class ResultsReadCounter: FetchedResultsController<any FetchRequestResult> {
    /// Whether reads are counted now.
    var counting = false
    /// The reads counted so far.
    var reads = 0

    override var sections: [any FetchedResultsSectionInfo]? {
        if counting { reads += 1 }
        return super.sections
    }

    override var fetchedObjects: [any FetchRequestResult]? {
        if counting { reads += 1 }
        return super.fetchedObjects
    }

    /// What `body` reads, not counted: the kata's own look at the results.
    func uncounted<T>(_ body: (ResultsReadCounter) -> T) -> T {
        let was = counting
        counting = false
        defer { counting = was }
        return body(self)
    }
}
