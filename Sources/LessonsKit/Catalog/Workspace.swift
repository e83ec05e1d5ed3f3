import Foundation

/// Where things are: the package root (includes and kata files are relative to it), the lessons folder and the
/// learner's progress file.
public struct Workspace: Sendable, Equatable {
    public var packageRoot: URL
    public var lessonsDirectory: URL
    public var progressFile: URL

    /// The progress file's name in the package root (ignored by git, see `lessons/README.md`).
    public static let progressFileName = ".lessons-progress.json"

    public init(packageRoot: URL, lessonsDirectory: URL? = nil, progressFile: URL? = nil) {
        self.packageRoot = packageRoot.standardizedFileURL
        self.lessonsDirectory = (lessonsDirectory ?? packageRoot.appendingPathComponent("lessons")).standardizedFileURL
        self.progressFile = (progressFile ?? packageRoot.appendingPathComponent(Self.progressFileName))
            .standardizedFileURL
    }

    public var manifestFile: URL { lessonsDirectory.appendingPathComponent("manifest.json") }

    /// Finds the package root: the nearest folder at or above `start` that holds `Package.swift` and
    /// `lessons/manifest.json`; else the same search from the executable's folder (`swift run` from elsewhere).
    public static func locateRoot(from start: URL, executable: URL?) throws(LessonsError) -> URL {
        let fileManager = FileManager.default
        func search(_ from: URL) -> URL? {
            var folder = from.standardizedFileURL
            while true {
                let manifest = folder.appendingPathComponent("lessons/manifest.json").path
                if fileManager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                   fileManager.fileExists(atPath: manifest) {
                    return folder
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { return nil }
                folder = parent
            }
        }
        if let found = search(start) { return found }
        if let executable, let found = search(executable.resolvingSymlinksInPath().deletingLastPathComponent()) {
            return found
        }
        throw LessonsError(.io, "cannot find the workbook from \(start.path): run lessons inside the package "
            + "(the folder with Package.swift and lessons/manifest.json), or pass --package-root DIR")
    }

    /// `path` relative to the package root when it lies inside it (for messages), else the absolute path.
    public func displayPath(_ url: URL) -> String {
        let root = packageRoot.path.hasSuffix("/") ? packageRoot.path : packageRoot.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// Resolves a path written in the manifest or a lesson (relative to the package root), refusing paths that
    /// climb out of the package.
    public func resolve(_ relativePath: String) -> URL? {
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"),
              !relativePath.split(separator: "/").contains("..") else { return nil }
        return packageRoot.appendingPathComponent(relativePath).standardizedFileURL
    }

    public func exists(_ relativePath: String) -> Bool {
        guard let url = resolve(relativePath) else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }
}
