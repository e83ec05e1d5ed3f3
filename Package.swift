// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CoreDataWorkbook",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Persistence", targets: ["Persistence"]),
        .executable(name: "lessons", targets: ["Lessons"]),
    ],
    // Which code Tests/Katas is built against (see lessons/README.md, "Katas"): the learner's starters by default,
    // the reference solutions with `--traits Solutions`, the known-wrong answers with `--traits Decoys`.
    traits: [
        .trait(name: "Solutions", description: "Build the katas against Sources/Solutions instead of Sources/Workbook."),
        .trait(name: "Decoys", description: "Build the katas against Sources/Decoys (LESSONS_DECOY picks the mistake)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C libraries from the system; only a few files import them (see README, "Layout").
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),

        // The Core Data–style object graph over SQLite (and one C thread-local it needs for speed).
        .target(name: "CPersistenceSupport", dependencies: ["CSQLite"]),
        .target(name: "Persistence", dependencies: ["CSQLite", "CPersistenceSupport"]),
        // A process the crash-consistency test kills mid-save (Tests/PersistenceTests/CrashConsistencyTests.swift).
        .executableTarget(name: "PersistenceCrashWriter", dependencies: ["Persistence"]),

        // Lesson catalog, Markdown rendering (terminal and HTML) and kata running.
        .target(name: "LessonsKit", dependencies: ["CCmark"]),
        .executableTarget(
            name: "Lessons",
            dependencies: [
                "LessonsKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The katas: code every lesson shares (models, the starters' error), the learner's starters, the reference
        // solutions and the decoys, all with the same public API, and one runnable example per lesson.
        // Lesson 3's model drawn in Xcode's format ships with the katas' support code, as a model ships in an app.
        .target(name: "KataSupport", dependencies: ["Persistence"], resources: [.copy("03-Modelling/Groups.xcdatamodeld")]),
        .target(name: "Workbook", dependencies: ["Persistence", "KataSupport"]),
        .target(name: "Solutions", dependencies: ["Persistence", "KataSupport"]),
        .target(name: "Decoys", dependencies: ["Persistence", "KataSupport"]),
        .executableTarget(name: "example01-testing", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/01-Testing"),
        .executableTarget(name: "example02-stack", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/02-Stack"),
        .executableTarget(name: "example03-modelling", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/03-Modelling", resources: [.copy("Cookbook.xcdatamodeld")]),
        .executableTarget(name: "example04-contexts-and-crud", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/04-ContextsAndCRUD"),
        .executableTarget(name: "example05-saving-safely", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/05-SavingSafely"),
        .executableTarget(name: "example06-faults-and-fetching", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/06-FaultsAndFetching"),
        .executableTarget(name: "example07-threads-and-queues", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/07-ThreadsAndQueues"),
        .executableTarget(name: "example08-child-contexts", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/08-ChildContexts"),
        .executableTarget(name: "example09-responding-to-changes", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/09-RespondingToChanges"),
        .executableTarget(name: "example10-query-generations", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/10-QueryGenerations"),
        .executableTarget(name: "example11-merge-rules", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/11-MergeRules"),
        .executableTarget(name: "example12-batch-requests", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/12-BatchRequests"),
        .executableTarget(name: "example13-searching", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/13-Searching"),

        // The performance labs: `lessons lab NAME` builds this in release mode (in .build/labs) and runs it.
        .executableTarget(name: "persistence-labs", dependencies: ["Persistence"], path: "Sources/Labs"),

        // Model files in Xcode's format, found the way an app finds its own (Bundle.module).
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence"], resources: [.copy("Fixtures/Models")]),
        .testTarget(
            name: "Katas",
            dependencies: [
                "Persistence", "KataSupport", "Workbook",
                .target(name: "Solutions", condition: .when(traits: ["Solutions"])),
                .target(name: "Decoys", condition: .when(traits: ["Decoys"])),
            ]
        ),
        // Fixtures and golden files are read from the source tree (#filePath), not built.
        .testTarget(name: "LessonsTests", dependencies: ["LessonsKit"], exclude: ["Fixtures", "Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
