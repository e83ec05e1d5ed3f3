// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CoreDataWorkbook",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Persistence", targets: ["Persistence"]),
        .executable(name: "lessons", targets: ["Lessons"]),
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
        .target(name: "CPersistenceSupport"),
        .target(name: "Persistence", dependencies: ["CSQLite", "CPersistenceSupport"]),

        // Lesson catalog, Markdown rendering (terminal and HTML) and kata running.
        .target(name: "LessonsKit", dependencies: ["CCmark"]),
        .executableTarget(
            name: "Lessons",
            dependencies: [
                "LessonsKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "PersistenceTests", dependencies: ["Persistence"]),
        // Fixtures and golden files are read from the source tree (#filePath), not built.
        .testTarget(name: "LessonsTests", dependencies: ["LessonsKit"], exclude: ["Fixtures", "Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
