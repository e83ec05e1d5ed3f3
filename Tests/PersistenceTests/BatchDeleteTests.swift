import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class BatchDeleteTests: PersistenceTestCase {
    private typealias Folder = BatchModel.Folder
    private typealias Deck = BatchModel.Deck
    private typealias Card = BatchModel.Card
    private typealias Note = BatchModel.Note
    private typealias Tag = BatchModel.Tag
    private typealias Bookmark = BatchModel.Bookmark
    private typealias Review = BatchModel.Review
    private typealias Node = BatchModel.Node

    private func deleteRequest(_ entityName: String, _ format: String? = nil, _ arguments: Any...) throws -> BatchDeleteRequest {
        let fetch = FetchRequest<FetchRequestResult>(entityName: entityName)
        if let format { fetch.predicate = FetchPredicate(format: format, argumentArray: arguments) }
        return BatchDeleteRequest(fetchRequest: fetch)
    }

    /// A store with the batch model: `decks` decks in one folder, each with `cards` cards of two notes each.
    private func makeDecks(_ decks: Int, cards: Int, in container: PersistentContainer) throws -> [Deck] {
        let context = container.viewContext
        let folder = Folder(context: context)
        folder.name = "Languages"
        var made: [Deck] = []
        for d in 0..<decks {
            let deck = Deck(context: context)
            deck.name = "Deck \(d)"
            deck.folder = folder
            deck.cardList = (0..<cards).map { c in
                let card = Card(context: context)
                card.front = "Card \(d).\(c)"
                for n in 0..<2 {
                    let note = Note(context: context)
                    note.text = "Note \(n)"
                    note.card = card
                }
                return card
            }
            made.append(deck)
        }
        try context.save()
        return made
    }

    // MARK: - Basics

    func testDeletesTheMatchingObjectsAndReportsThem() throws {
        let alien = makeMovie("Alien", year: 1979)
        let heat = makeMovie("Heat", year: 1995)
        makeMovie("Up", year: 2009)
        try context.save()

        let request = try deleteRequest("Movie", "year < %@", 2000)
        request.resultType = .resultTypeObjectIDs
        let result = try context.execute(request)
        XCTAssertEqual(result.count, 2)
        XCTAssertEqual(result.objectIDs, [alien.objectID, heat.objectID])
        XCTAssertEqual(result.result as? [ManagedObjectID], [alien.objectID, heat.objectID])
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(try storedCount("Movie", "title == 'Up'"), 1)

        request.resultType = .resultTypeCount
        XCTAssertEqual(try context.execute(request).result as? Int, 0, "nothing left to match")
        request.resultType = .resultTypeStatusOnly
        XCTAssertEqual(try context.execute(request).result as? Bool, true)
    }

    func testAppCodeSpellsTheRequestAndTheResultAsInCoreData() throws {
        let alien = makeMovie("Alien", year: 1979)
        makeMovie("Up", year: 2009)
        try context.save()

        // An untyped fetch request (Core Data's NSFetchRequest<NSFetchRequestResult>), its entity set, not named.
        let fetch = FetchRequest<FetchRequestResult>()
        fetch.entity = try XCTUnwrap(container.managedObjectModel.entitiesByName["Movie"])
        fetch.predicate = FetchPredicate(format: "year < %d", 2000)
        let request = BatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeObjectIDs
        // The one public execute(_:) returns the base class: cast it, then cast its result.
        let untyped: any PersistentStoreRequest = request
        let result = try context.execute(untyped)
        XCTAssertNil(result as? BatchUpdateResult)
        let deleted = try XCTUnwrap(result as? BatchDeleteResult)
        XCTAssertEqual(deleted.resultType, .resultTypeObjectIDs)
        XCTAssertEqual(deleted.result as? [ManagedObjectID], [alien.objectID])
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    func testCascadesIntoRowsWithNothingElseToDoDeleteAsTheGatheredCascadeDoes() throws {
        // Notes have one relationship (to their card) and only cards lead to them: a count-only delete removes them
        // in one statement at the end; a delete that returns IDs gathers them. Both leave the same store.
        var snapshots: [[String: [[SQLiteValue]]]] = []
        for resultType in [BatchDeleteRequestResultType.resultTypeCount, .resultTypeObjectIDs] {
            let store = try makeContainer(model: BatchModel.make())
            _ = try makeDecks(3, cards: 4, in: store)
            let request = try deleteRequest("Deck", "name != %@", "Deck 2")
            request.resultType = resultType
            let result = try store.viewContext.execute(request)
            XCTAssertEqual(result.count, 2 + 8 + 16, "\(resultType): 2 decks, their 8 cards and 16 notes")
            XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZNOTE", in: store), 8)
            XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZNOTE WHERE ZCARD NOT IN (SELECT Z_PK FROM ZCARD)", in: store), 0)
            snapshots.append(try storeSnapshot(in: store).filter { !$0.key.hasPrefix("Z_METADATA") })
        }
        XCTAssertEqual(snapshots[0], snapshots[1])
    }

    func testLimitAndOffsetChooseRowsInSortOrder() throws {
        for (title, year) in [("A", 1990), ("B", 1970), ("C", 1980), ("D", 2000)] { makeMovie(title, year: year) }
        try context.save()
        let fetch = FetchRequest<FetchRequestResult>(entityName: "Movie")
        fetch.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
        fetch.fetchLimit = 2
        fetch.fetchOffset = 1
        XCTAssertEqual(try context.execute(BatchDeleteRequest(fetchRequest: fetch)).count, 2)
        XCTAssertEqual(try storedCount("Movie", "title IN %@", ["B", "D"]), 2, "the oldest and the newest stay")
    }

    func testObjectIDsOfOneEntityAreDeleted() throws {
        let alien = makeMovie("Alien")
        let heat = makeMovie("Heat")
        makeMovie("Up")
        try context.save()
        let result = try context.execute(BatchDeleteRequest(objectIDs: [alien.objectID, heat.objectID, alien.objectID]))
        XCTAssertEqual(result.count, 2, "a repeated ID is deleted once")
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(try context.execute(BatchDeleteRequest(objectIDs: [heat.objectID])).count, 0, "a gone row is skipped")
        XCTAssertEqual(try context.execute(BatchDeleteRequest(objectIDs: [])).count, 0)
    }

    func testBadObjectIDsAreRefused() throws {
        let alien = makeMovie("Alien")
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        try context.save()
        let mixed = assertPersistenceError(.coreData) {
            try context.execute(BatchDeleteRequest(objectIDs: [alien.objectID, scott.objectID]))
        }
        XCTAssertEqual(mixed?.objectID, scott.objectID)
        let draft = makeMovie("Draft")
        let temporary = assertPersistenceError(.coreData) { try context.execute(BatchDeleteRequest(objectIDs: [draft.objectID])) }
        XCTAssertTrue(temporary?.message.contains("temporary") == true, temporary?.message ?? "")
        let foreign = try makeContainer()
        let other = makeMovie("Elsewhere", in: foreign.viewContext)
        try foreign.viewContext.save()
        assertPersistenceError(.coreData) { try context.execute(BatchDeleteRequest(objectIDs: [other.objectID])) }
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    func testUnknownEntityOrKeyListsTheChoicesAndDeletesNothing() throws {
        makeMovie("Alien")
        try context.save()
        let entity = assertPersistenceError(.persistentStoreIncompatibleSchema) { try context.execute(try deleteRequest("Film")) }
        XCTAssertTrue(entity?.message.contains("Its entities: Movie, Director") == true, entity?.message ?? "")
        let key = assertPersistenceError(.persistentStoreIncompatibleSchema) { try context.execute(try deleteRequest("Movie", "titel == %@", "Alien")) }
        XCTAssertTrue(key?.message.contains("Its properties: title, year, rating") == true, key?.message ?? "")
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    // MARK: - Delete rules

    func testCascadeReachesOrderedChildrenAndTheirChildren() throws {
        let store = try makeContainer(model: BatchModel.make())
        let decks = try makeDecks(3, cards: 4, in: store)
        let request = try deleteRequest("Deck", "name != %@", "Deck 2")
        request.resultType = .resultTypeObjectIDs
        let result = try store.viewContext.execute(request)

        XCTAssertEqual(result.count, 2 + 8 + 16, "2 decks, their 8 cards and 16 notes")
        let ids = try XCTUnwrap(result.objectIDs)
        XCTAssertEqual(Array(ids.prefix(2)), [decks[0].objectID, decks[1].objectID], "the request's own objects come first")
        XCTAssertEqual(ids.filter { $0.entityName == "Card" }.count, 8)
        XCTAssertEqual(ids.filter { $0.entityName == "Note" }.count, 16)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZDECK", in: store), 1)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZCARD", in: store), 4)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZNOTE", in: store), 8)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZCARD WHERE ZDECK IS NULL OR ZDECK != \(decks[2].objectID.primaryKey!)", in: store), 0)
    }

    func testNullifyClearsKeysAndBumpsTheRowsThatStay() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        let alien = makeMovie("Alien")
        let gladiator = makeMovie("Gladiator")
        alien.director = scott
        gladiator.director = scott
        let keep = makeMovie("Heat")
        try context.save()

        XCTAssertEqual(try context.execute(BatchDeleteRequest(objectIDs: [scott.objectID])).count, 1)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZMOVIE WHERE ZDIRECTOR IS NOT NULL"), 0, "no key points at the deleted director")
        XCTAssertEqual(try storedCount("Movie"), 3)
        XCTAssertEqual(try storedVersion(of: alien.objectID), 2)
        XCTAssertEqual(try storedVersion(of: gladiator.objectID), 2)
        XCTAssertEqual(try storedVersion(of: keep.objectID), 1, "unrelated rows keep their version")

        // The context still holds the old graph; saving a stale movie conflicts instead of restoring the key.
        XCTAssertTrue(alien.director === scott)
        alien.rating = 8
        assertPersistenceError(.managedObjectMerge) { try context.save() }
    }

    func testNullifyRemovesJoinRowsAndBumpsTheOtherSide() throws {
        let alien = makeMovie("Alien")
        let heat = makeMovie("Heat")
        let sigourney = Actor(context: context)
        sigourney.name = "Sigourney Weaver"
        sigourney.movies = [alien, heat]
        let alone = Actor(context: context)
        alone.name = "Nobody"
        try context.save()

        try context.execute(BatchDeleteRequest(objectIDs: [alien.objectID]))
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM Z_ACTOR_MOVIES"), 1)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM Z_ACTOR_MOVIES WHERE Z_TARGET = \(alien.objectID.primaryKey!)"), 0)
        XCTAssertEqual(try storedVersion(of: sigourney.objectID), 2)
        XCTAssertEqual(try storedVersion(of: alone.objectID), 1)
        let reader = container.newBackgroundContext()
        let titles = try reader.performAndWait {
            try XCTUnwrap(reader.existingObject(with: sigourney.objectID) as? Actor).movies.map(\.title)
        }
        XCTAssertEqual(titles, ["Heat"])
    }

    func testCascadeThroughAJoinTable() throws {
        let store = try makeContainer(model: BatchModel.make())
        let context = store.viewContext
        let decks = try makeDecks(1, cards: 3, in: store)
        let cards = decks[0].cardList
        let spanish = Tag(context: context)
        spanish.name = "Spanish"
        spanish.cards = [cards[0], cards[1]]
        let verbs = Tag(context: context)
        verbs.name = "Verbs"
        verbs.cards = [cards[1], cards[2]]
        try context.save()

        let result = try context.execute(BatchDeleteRequest(objectIDs: [spanish.objectID]))
        XCTAssertEqual(result.count, 1 + 2 + 4, "the tag, its two cards and their notes")
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZCARD", in: store), 1)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM Z_CARD_TAGS", in: store), 1, "only Verbs–card 2 is left")
        XCTAssertEqual(try storedVersion(of: verbs.objectID, in: store), 2, "Verbs lost card 1 (nullify on Card.tags)")
        XCTAssertEqual(try storedVersion(of: decks[0].objectID, in: store), 2, "the deck lost two cards (nullify on Card.deck)")
    }

    func testNoActionLeavesReferencesDangling() throws {
        let store = try makeContainer(model: BatchModel.make())
        let context = store.viewContext
        let card = try makeDecks(1, cards: 1, in: store)[0].cardList[0]
        let bookmark = Bookmark(context: context)
        bookmark.label = "Hard"
        bookmark.card = card
        try context.save()

        try context.execute(BatchDeleteRequest(objectIDs: [card.objectID]))
        XCTAssertEqual(try storeInteger("SELECT ZCARD FROM ZBOOKMARK", in: store), card.objectID.primaryKey, "the key still names the deleted card")
        XCTAssertEqual(try storedVersion(of: bookmark.objectID, in: store), 1)
    }

    func testDenyRefusesAndChangesNothing() throws {
        let pinewood = Studio(context: context)
        pinewood.name = "Pinewood"
        makeMovie("Alien").studio = pinewood
        let empty = Studio(context: context)
        empty.name = "Empty"
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        try context.save()
        let before = try storeSnapshot()

        let error = assertPersistenceError(.validationRelationshipDeniedDelete) {
            try context.execute(try deleteRequest("Studio"))
        }
        XCTAssertEqual(error?.objectID, pinewood.objectID)
        XCTAssertEqual(error?.key, "movies")
        XCTAssertTrue(error?.message.contains("still holds 1 object(s)") == true, error?.message ?? "")
        XCTAssertEqual(try storeSnapshot(), before, "not even the empty studio was deleted")

        XCTAssertEqual(try context.execute(try deleteRequest("Studio", "name == %@", "Empty")).count, 1)
    }

    func testDenyReachedThroughACascadeRefusesTheWholeRequest() throws {
        let store = try makeContainer(model: BatchModel.make())
        let context = store.viewContext
        let decks = try makeDecks(2, cards: 2, in: store)
        let review = Review(context: context)
        review.score = 5
        review.deck = decks[1]
        try context.save()
        let before = try storeSnapshot(in: store)

        let error = assertPersistenceError(.validationRelationshipDeniedDelete) {
            try context.execute(try deleteRequest("Folder"))
        }
        XCTAssertEqual(error?.objectID, decks[1].objectID, "the deck reached by cascade is the one that refuses")
        XCTAssertEqual(error?.key, "reviews")
        XCTAssertEqual(try storeSnapshot(in: store), before)
    }

    func testCascadeThroughAToOneIsRefusedOrAllowedByTheDenyItReaches() throws {
        let store = try makeContainer(model: BatchModel.make())
        let context = store.viewContext
        let decks = try makeDecks(2, cards: 1, in: store)
        let reviews = (0..<3).map { score in
            let review = Review(context: context)
            review.score = score
            review.deck = score == 0 ? decks[0] : decks[1]
            return review
        }
        try context.save()

        // Review 1 cascades to deck 1, whose other review (2) stays: the deck's deny rule refuses.
        let refused = assertPersistenceError(.validationRelationshipDeniedDelete) {
            try context.execute(BatchDeleteRequest(objectIDs: [reviews[1].objectID]))
        }
        XCTAssertEqual(refused?.objectID, decks[1].objectID)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZREVIEW", in: store), 3)

        // Review 0 is deck 0's only review: the deck, its card and the card's notes go with it.
        let request = BatchDeleteRequest(objectIDs: [reviews[0].objectID])
        request.resultType = .resultTypeObjectIDs
        let ids = try XCTUnwrap(try context.execute(request).objectIDs)
        XCTAssertEqual(ids.map(\.entityName), ["Review", "Deck", "Card", "Note", "Note"])
        XCTAssertEqual(ids[1], decks[0].objectID)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZDECK", in: store), 1)
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZNOTE", in: store), 2)
    }

    func testDenyAllowsDeletingWhenTheRelatedObjectsGoToo() throws {
        let store = try makeContainer(model: BatchModel.make())
        let context = store.viewContext
        let root = Node(context: context)
        root.name = "root"
        let child = Node(context: context)
        child.name = "child"
        child.parent = root
        let grandchild = Node(context: context)
        grandchild.name = "grandchild"
        grandchild.parent = child
        try context.save()

        assertPersistenceError(.validationRelationshipDeniedDelete) {
            try context.execute(BatchDeleteRequest(objectIDs: [root.objectID, child.objectID]))
        }
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZNODE", in: store), 3)
        XCTAssertEqual(try context.execute(try deleteRequest("Node")).count, 3, "every child is deleted too, so deny holds")
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZNODE", in: store), 0)
    }

    func testDeletingAChildBumpsItsParentAndLeavesItsSiblings() throws {
        let store = try makeContainer(model: BatchModel.make())
        let deck = try makeDecks(1, cards: 3, in: store)[0]
        let middle = deck.cardList[1]
        try store.viewContext.execute(BatchDeleteRequest(objectIDs: [middle.objectID]))
        XCTAssertEqual(try storedVersion(of: deck.objectID, in: store), 2)
        let reader = store.newBackgroundContext()
        let fronts = try reader.performAndWait {
            try XCTUnwrap(reader.existingObject(with: deck.objectID) as? Deck).cardList.map(\.front)
        }
        XCTAssertEqual(fronts, ["Card 0.0", "Card 0.2"], "the ordered list keeps its order around the gap")
    }

    // MARK: - Contexts

    func testRegisteredObjectsStayUntilMergedAndStaleSavesConflict() throws {
        let alien = makeMovie("Alien")
        let heat = makeMovie("Heat")
        try context.save()
        let request = try deleteRequest("Movie")
        request.resultType = .resultTypeObjectIDs
        let ids = try XCTUnwrap(try context.execute(request).objectIDs)

        XCTAssertFalse(alien.isDeleted, "the context was not told")
        XCTAssertEqual(alien.title, "Alien")
        heat.rating = 1
        let conflict = assertPersistenceError(.managedObjectMerge) { try context.save() }?.conflicts.first
        XCTAssertEqual(conflict?.newVersionNumber, 0, "the row is gone")
        context.rollback()

        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [ManagedObjectContext.NotificationKey.deletedObjects.rawValue: ids],
                                          into: [context])
        XCTAssertNil(context.registeredObject(for: alien.objectID), "merging the returned IDs removes the objects")
    }

    func testAChildContextsBatchDeleteGoesStraightToTheStore() throws {
        makeMovie("Alien")
        try context.save()
        let child = ManagedObjectContext(.privateQueue)
        child.parent = context
        let count = try child.performAndWait { try child.execute(try deleteRequest("Movie")).count }
        XCTAssertEqual(count, 1)
        XCTAssertEqual(try storedCount("Movie"), 0)
    }
}
