// swift-tools-version: 6.1
// Benchmarks live apart from the workbook so a learner's first build never pays for them.
// Run: swift run -c release --package-path Benchmarks persistence-bench
import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "persistence-bench", targets: ["PersistenceBench"])],
    dependencies: [
        .package(name: "CoreDataWorkbook", path: ".."),
        // The best Swift peer: GRDB's record layer (Codable records) and its statement layer (rows and cursors).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The raw C API, as the floor every figure is compared with.
        .systemLibrary(name: "SQLite3C", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "PersistenceBench",
            dependencies: ["SQLite3C", .product(name: "Persistence", package: "CoreDataWorkbook"),
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
