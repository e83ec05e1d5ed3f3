import Foundation

/// Finds the decoy ids a folder of decoy code switches on: every `Decoy.isActive("id")` in its Swift files.
/// `lessons verify` compares them with the manifest, so a decoy cannot be listed without code, or coded without
/// being listed (and so never run).
public enum DecoyScanner {
    /// The ids used at `relativePath`, sorted, each once.
    public static func ids(at relativePath: String, workspace: Workspace) -> [String] {
        var found: Set<String> = []
        for file in workspace.swiftFiles(at: relativePath) {
            guard let url = workspace.resolve(relativePath + "/" + file),
                  let source = try? String(contentsOf: url, encoding: .utf8) else { continue }
            found.formUnion(ids(in: source))
        }
        return found.sorted()
    }

    /// The ids in one file's source.
    public static func ids(in source: String) -> Set<String> {
        var found: Set<String> = []
        let marker = "Decoy.isActive(\""
        var rest = source[...]
        while let start = rest.range(of: marker) {
            let tail = rest[start.upperBound...]
            guard let end = tail.firstIndex(of: "\"") else { break }
            found.insert(String(tail[..<end]))
            rest = tail[end...]
        }
        return found
    }
}
