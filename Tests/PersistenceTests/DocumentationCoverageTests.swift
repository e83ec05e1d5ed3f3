import Foundation
import XCTest

/// Every public declaration of Persistence has a doc comment. The check reads the symbol graph DocC would read:
/// `swift symbolgraph-extract` on the module this test was built with (about half a second), so what it sees is
/// what `Persistence.docc` documents.
///
/// A declaration without a comment of its own passes only when it implements a protocol requirement that has one
/// (an `Int`'s `persistentValue`, a type's `description`): DocC shows the requirement's text there.
final class DocumentationCoverageTests: XCTestCase {
    /// Requirements of the standard library's and Foundation's protocols, documented there.
    private static let foreignRequirements: Set<String> = [
        "description", "debugDescription", "hash(into:)", "==(_:_:)", "<(_:_:)", "encode(to:)", "init(from:)",
        "init(rawValue:)", "rawValue", "errorDescription", "errorUserInfo", "errorCode", "errorDomain",
        "makeIterator()", "next()", "makeAsyncIterator()", "id", "allCases", "hashValue",
    ]

    func testEveryPublicDeclarationHasADocComment() throws {
        let graph = try extractSymbolGraph()
        let undocumented = Self.undocumented(in: graph)
        XCTAssertGreaterThan(graph.symbols.count, 300, "the symbol graph looks incomplete")
        XCTAssertEqual(undocumented, [], "public declarations without a doc comment (file:line name):\n"
            + undocumented.joined(separator: "\n"))
    }

    /// The rule on a made-up graph: a comment of one's own, or a documented requirement of the same name.
    func testTheRuleAcceptsDocumentedRequirementsAndNothingElse() {
        let graph = SymbolGraph(symbols: [
            .init(id: "a", title: "persistentValue", path: "Int.persistentValue", file: "Objects/X.swift", line: 1,
                  documented: false),
            .init(id: "b", title: "persistentValue", path: "ManagedAttributeValue.persistentValue",
                  file: "Objects/X.swift", line: 2, documented: true),
            .init(id: "c", title: "placeholder", path: "Int.placeholder", file: "Objects/X.swift", line: 3,
                  documented: false),
            .init(id: "d", title: "description", path: "Thing.description", file: "Model/Y.swift", line: 4,
                  documented: false),
        ], requirements: ["b"])
        XCTAssertEqual(Self.undocumented(in: graph), ["Objects/X.swift:3 Int.placeholder"])
    }

    // MARK: The symbol graph

    struct SymbolGraph {
        struct Symbol {
            var id: String
            var title: String
            var path: String
            var file: String
            var line: Int
            var documented: Bool
        }
        var symbols: [Symbol]
        /// The IDs of protocol requirements.
        var requirements: Set<String>
    }

    static func undocumented(in graph: SymbolGraph) -> [String] {
        let documentedRequirements = Set(graph.symbols.filter { graph.requirements.contains($0.id) && $0.documented }
            .map(\.title))
        return graph.symbols
            .filter { !$0.documented && !documentedRequirements.contains($0.title)
                && !foreignRequirements.contains($0.title) }
            .sorted { ($0.file, $0.line) < ($1.file, $1.line) }
            .map { "\($0.file):\($0.line) \($0.path)" }
    }

    /// Runs `swift symbolgraph-extract` on the Persistence module next to this test executable.
    private func extractSymbolGraph() throws -> SymbolGraph {
        let module = try BuiltPersistenceModule()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        #if arch(x86_64)
        let target = "x86_64-unknown-linux-gnu"
        #else
        let target = "aarch64-unknown-linux-gnu"
        #endif
        // The Persistence-only API behind @_spi groups is documented too.
        let run = try module.run(["swift", "symbolgraph-extract"], ["-module-name", "Persistence", "-target", target],
                                 following: ["-minimum-access-level", "public", "-include-spi-symbols",
                                          "-output-dir", output.path])
        guard run.status == 0 else {
            XCTFail("swift symbolgraph-extract failed:\n" + run.output)
            return SymbolGraph(symbols: [], requirements: [])
        }
        var symbols: [SymbolGraph.Symbol] = []
        var requirements: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            for case let symbol as [String: Any] in json["symbols"] as? [Any] ?? [] {
                guard let location = symbol["location"] as? [String: Any], let uri = location["uri"] as? String,
                      let range = uri.range(of: "Sources/Persistence/"),
                      let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String, kind != "swift.extension",
                      let id = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
                      let title = (symbol["names"] as? [String: Any])?["title"] as? String else { continue }
                let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
                let path = (symbol["pathComponents"] as? [String] ?? [title]).joined(separator: ".")
                symbols.append(.init(id: id, title: title, path: path, file: String(uri[range.upperBound...]),
                                     line: line, documented: symbol["docComment"] != nil))
            }
            for case let relation as [String: Any] in json["relationships"] as? [Any] ?? []
            where relation["kind"] as? String == "requirementOf" {
                if let source = relation["source"] as? String { requirements.insert(source) }
            }
        }
        return SymbolGraph(symbols: symbols, requirements: requirements)
    }
}
