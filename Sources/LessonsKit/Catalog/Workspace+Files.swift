import Foundation

extension Workspace {
    /// The Swift files at `relativePath` — the file itself, or every `.swift` file below a folder — as paths
    /// relative to `relativePath` (a file gives its own name), sorted. Empty when nothing is there.
    public func swiftFiles(at relativePath: String) -> [String] {
        guard let url = resolve(relativePath) else { return [] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return url.pathExtension == "swift" ? [url.lastPathComponent] : [] }
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append(relative) }
        }
        return files.sorted()
    }
}

extension Workspace {
    /// Keeps a run's complete output in `.build/lessons/NAME` (for when a summary is not enough); the file, or nil
    /// when it could not be written.
    @discardableResult
    func saveLog(_ output: String, name: String) -> URL? {
        let folder = packageRoot.appendingPathComponent(".build/lessons")
        let file = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(output.utf8).write(to: file, options: .atomic)
            return file
        } catch {
            return nil
        }
    }
}
