// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription
#if os(Linux)
import Foundation
#endif

/// The lessons, each by its one id `NN-slug`: its folder in lessons/, Sources/{Workbook,Solutions,Decoys,KataSupport,
/// Examples}, its example product `exampleNN-slug` and its kata suite (`Tests/Katas/KataNNSlugInCamelCase.swift`)
/// are all named from it; `lessons verify` checks that lessons/manifest.json agrees. Resources are folders copied
/// as they are (Xcode's model files), relative to the lesson's KataSupport or Examples folder.
struct LessonTargets {
    var id: String
    var kataResources: [String] = []
    var exampleResources: [String] = []
}

let lessons: [LessonTargets] = [
    .init(id: "01-testing"),
    .init(id: "02-stack"),
    .init(id: "03-modelling", kataResources: ["Groups.xcdatamodeld"], exampleResources: ["Cookbook.xcdatamodeld"]),
    .init(id: "04-contexts-and-crud"),
    .init(id: "05-saving-safely"),
    .init(id: "06-faults-and-fetching"),
    .init(id: "07-threads-and-queues"),
    .init(id: "08-child-contexts"),
    .init(id: "09-responding-to-changes"),
    .init(id: "10-query-generations"),
    .init(id: "11-merge-rules"),
    .init(id: "12-batch-requests"),
    .init(id: "13-searching-and-async-fetching"),
    .init(id: "14-persistent-history"),
    .init(id: "15-fetched-results"),
    .init(id: "16-model-versions", exampleResources: ["Runs.xcdatamodeld"]),
]

/// `LESSONS_KATA_SUBJECTS=all` (set by `lessons verify` and scripts/check) adds the katas built against the
/// solutions and against the decoys to the package, beside the learner's, so that one build compiles Persistence
/// once for all three. Without it a learner's `swift test` builds and runs the starters' katas only.
let kataSubjects = Context.environment["LESSONS_KATA_SUBJECTS"] == "all" ? ["Solutions", "Decoys"] : []

/// The compiler plug-ins (macro targets), each in Sources/NAME: none yet. Each is compiled against swift-syntax,
/// from one of two places:
/// - the toolchain's own copy, when the toolchain evaluating this manifest has one (Linux toolchains ship it in
///   `usr/lib/swift/host`, with module interfaces, for their own macros): already compiled, so a clean build spends
///   about 25 seconds on it instead of 2½–3 minutes on two cores;
/// - else, or with `LESSONS_SWIFT_SYNTAX=package`, the swift-syntax package.
/// The plug-in's source is the same for both: it uses swift-syntax's macro protocols and, for its `main`, the
/// message handling both places provide (swift-syntax's `SwiftCompilerPlugin` is only a `main` over it).
let macroTargets: [String] = []

/// The folder of the toolchain's own swift-syntax (`…/usr/lib/swift/host`), found from the PackageDescription
/// library this manifest runs with; nil when that toolchain has none or the package is asked for.
let toolchainSwiftSyntax: String? = {
    #if os(Linux)
    guard Context.environment["LESSONS_SWIFT_SYNTAX"] != "package",
          let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
    let suffix = "/pm/ManifestAPI/libPackageDescription.so"
    guard let line = maps.split(separator: "\n").first(where: { $0.hasSuffix(suffix) }),
          let start = line.firstIndex(of: "/") else { return nil }
    let host = line[start...].dropLast(suffix.count) + "/host"
    let needed = ["SwiftSyntax", "SwiftSyntaxBuilder", "SwiftSyntaxMacros", "SwiftCompilerPluginMessageHandling"]
    let present = needed.allSatisfy { module in
        FileManager.default.fileExists(atPath: "\(host)/\(module).swiftmodule")
            && FileManager.default.fileExists(atPath: "\(host)/lib\(module).so")
    }
    return present ? String(host) : nil
    #else
    return nil
    #endif
}()

func macroTarget(_ name: String) -> Target {
    if let host = toolchainSwiftSyntax {
        return .macro(name: name, swiftSettings: [.unsafeFlags(["-I", host])],
                      linkerSettings: [.unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host])])
    }
    return .macro(name: name, dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "_SwiftCompilerPluginMessageHandling", package: "swift-syntax"),
    ])
}

let package = Package(
    name: "CoreDataWorkbook",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Persistence", targets: ["Persistence"]),
        .executable(name: "lessons", targets: ["Lessons"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ] + (macroTargets.isEmpty || toolchainSwiftSyntax != nil ? [] : [
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ]),
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
        // The folder READMEs (glossary and rules of the memory machinery and the registry) are for readers only.
        .target(name: "Persistence", dependencies: ["CSQLite", "CPersistenceSupport"],
                exclude: ["Storage/README.md", "Registry/README.md"]),
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
        // solutions and the decoys, all with the same public API; one runnable example per lesson (below).
        // Lesson 3's model drawn in Xcode's format ships with the katas' support code, as a model ships in an app.
        .target(name: "KataSupport", dependencies: ["Persistence"],
                resources: lessons.flatMap { lesson in lesson.kataResources.map { .copy("\(lesson.id)/\($0)") } }),
        .target(name: "Workbook", dependencies: ["Persistence", "KataSupport"]),
        .target(name: "Solutions", dependencies: ["Persistence", "KataSupport"]),
        // Wrong answers Swift 6 refuses to compile live in Decoys/Rejected, outside the target: `lessons verify`
        // compiles each against the solution and expects the error its manifest entry names.
        .target(name: "Decoys", dependencies: ["Persistence", "KataSupport"], exclude: ["Rejected"]),

        // The performance labs: `lessons lab NAME` builds this in release mode (in .build/labs) and runs it.
        .executableTarget(name: "persistence-labs", dependencies: ["Persistence"], path: "Sources/Labs"),

        // Model files in Xcode's format, found the way an app finds its own (Bundle.module).
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence"], resources: [.copy("Fixtures/Models")]),
        // The katas against the learner's starters: what `swift test` runs.
        .testTarget(name: "Katas", dependencies: ["Persistence", "KataSupport", "Workbook"]),
        // Fixtures and golden files are read from the source tree (#filePath), not built.
        .testTarget(name: "LessonsTests", dependencies: ["LessonsKit"], exclude: ["Fixtures", "Golden"]),
    ] + lessons.map { lesson in
        // One runnable example per lesson (swift run lessons run N).
        .executableTarget(name: "example\(lesson.id)", dependencies: ["Persistence", "KataSupport"],
                          path: "Sources/Examples/\(lesson.id)", resources: lesson.exampleResources.map { .copy($0) })
    } + macroTargets.map(macroTarget) + kataSubjects.map { subject in
        // The same kata files against the reference solutions or the decoys, for `lessons verify` only
        // (lessons/README.md, "Katas"): Tests/KatasSolutions and Tests/KatasDecoys are links to Tests/Katas.
        .testTarget(name: "Katas\(subject)", dependencies: ["Persistence", "KataSupport", .target(name: subject)],
                    swiftSettings: [.define(subject)])
    },
    swiftLanguageModes: [.v6]
)

// Debug builds write an index for editors, and by default each compile job also indexes every system module it
// imports (Foundation, Glibc, Dispatch): that was a fifth of compiling Persistence (70 s → 58 s of processor time
// on two cores without it). The index of the package's own code, which test discovery on Linux reads, stays.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-index-ignore-system-modules"])]
}
