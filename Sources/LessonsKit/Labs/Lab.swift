/// One performance lab: a claim from the source documents, measured again on the learner's machine.
public struct Lab: Sendable {
    /// The name `lessons lab NAME` takes.
    public let name: String
    /// One line for the list.
    public let summary: String
    /// Which document made the claim, and where.
    public let source: String
    /// What `--rows` counts, and its full size.
    public let rowsUnit: String
    public let defaultRows: Int
    /// The document's own figure for a way of doing the work, by the measurement's name.
    public let documentFigures: [String: String]
    /// What to take away from the table, whatever this machine's figures are.
    public let conclusion: String
}

/// The labs there are.
public enum LabCatalog {
    public static let all: [Lab] = [
        Lab(name: "search",
            summary: "three contains[cd] terms over 1.6 million cards: count, fetch, faults or not",
            source: "document 004, \"Searching\"", rowsUnit: "cards", defaultRows: 1_600_000,
            documentFigures: ["fetch": "4.2 s"],
            conclusion: """
                A [cd] comparison folds case and accents on every row it looks at, so the time grows with the \
                table, not with the matches; counting saves only the objects, as the memory column shows. Core \
                Data's figure comes from the document author's device: compare how the ways rank, not the seconds.
                """),
        Lab(name: "delete",
            summary: "10,000 decks of 10 cards deleted through a child context, a context, and a batch delete",
            source: "document 004, \"Batch Delete\"", rowsUnit: "decks", defaultRows: 10_000,
            documentFigures: ["child context": "2 min", "context saving to the store": "16 s",
                              "batch delete": "under 0.5 s"],
            conclusion: """
                Deleting objects one by one loads each deck and its cards, runs the delete rules in memory and \
                writes every row; a child of the view context (the document's set-up) does that twice, once into \
                the view context on the main queue and once into the store. A batch delete is one statement in \
                the store: fastest by far, with no objects in memory, and no context hears of it unless you merge \
                the deleted IDs (lesson 12).
                """),
        Lab(name: "import",
            summary: "a paged background import while the view context shows the data: merge, reset, or pin",
            source: "document 000, the open question on large imports", rowsUnit: "items", defaultRows: 200_000,
            documentFigures: [:],
            conclusion: """
                Merging every page keeps the view context current, but each merge is work on the main queue \
                while the import runs, and the view context ends up holding every imported object. Merging \
                nothing and resetting once at the end leaves it holding only the list it fetches again; a query \
                generation keeps the list still during the import and moves it on in one step at the end \
                (lessons 9 and 10).
                """),
        Lab(name: "faults",
            summary: "averaging one attribute over 200,000 objects, as faults, not as faults, or as dictionaries",
            source: "document 001, \"Setting NSFetchRequest.returnsObjectsAsFaults = false\"", rowsUnit: "readings",
            defaultRows: 200_000, documentFigures: [:],
            conclusion: """
                In Core Data an object fetched as a fault fills its values from the row cache when first read, \
                a second step for every object that returnsObjectsAsFaults = false saves. A fault of Persistence \
                holds its row already (lesson 6), so the first two ways should be close here. A dictionary fetch \
                of the one attribute makes no managed objects, but a dictionary per row instead: compare its line \
                before you reach for it. The document gives no figure: this table is the answer on this machine.
                """),
        Lab(name: "history",
            summary: "a 200,000-row batch import brought to the view context: lesson 12's hand merge or persistent history",
            source: "document 000, the open question on large imports, answered with lesson 14's persistent history",
            rowsUnit: "items",
            defaultRows: 200_000, documentFigures: [:],
            conclusion: """
                Recording history writes a change per row in the import's own transaction: compare the two insert \
                lines for what that costs here. Reading the transaction back makes an object per change before \
                anything is merged, so the merge through history takes more time and memory than merging the IDs \
                the request returned. Both end alike, with every inserted row registered in the view context; a \
                screen that shows a few rows may filter what it merges, or fetch again. What history buys is not \
                speed: it tells every reader what changed when the writer's result is not at hand — another \
                process, a widget, a sync (lesson 14).
                """),
        Lab(name: "fetched-results",
            summary: "a fetched results controller over 100,000 items following a merge of 1,000 changed objects",
            source: "document 000, \"Retrieving records\": a fetch does not update the UI by itself",
            rowsUnit: "items", defaultRows: 100_000, documentFigures: [:],
            conclusion: """
                A controller puts each changed object in place with the request's own sort and predicate, in \
                memory, and tells its delegate only what changed: following a merge costs a fraction of fetching \
                everything again, though more than the merge alone, which only refreshes the objects the context \
                holds. Its sections sit beside objects the context holds anyway, so the memory column barely moves \
                (lesson 15).
                """),
        Lab(name: "migration",
            summary: "200,000 rows migrated on load (an attribute added with a default, one renamed) against ALTER TABLE",
            source: "Apple's lightweight migration guide: done in place, \"solely by issuing SQL statements\"",
            rowsUnit: "moods", defaultRows: 200_000, documentFigures: [:],
            conclusion: """
                A lightweight migration of an SQLite store loads no object: it is the ALTER TABLE statements the \
                change needs, in one transaction with the store's new metadata, so its time grows with the table \
                but stays a small multiple of the statements alone (the rest is reading the metadata, planning \
                and checkpointing the file). Opening the migrated store again costs what any open does. A \
                migration that loads and copies every object would cost what a full import does (lesson 16).
                """),
    ]

    /// The lab called `name`, or an error listing the labs.
    public static func lab(named name: String) throws(LessonsError) -> Lab {
        guard let lab = all.first(where: { $0.name == name }) else {
            throw LessonsError(.unknownChoice, "there is no lab called '\(name)'. The labs: "
                + all.map(\.name).joined(separator: ", ") + ".")
        }
        return lab
    }
}
