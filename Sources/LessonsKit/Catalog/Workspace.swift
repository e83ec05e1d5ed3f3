import Foundation

/// Where things are: the package root (includes and kata files are relative to it), the lessons folder, the
/// learner's progress file and the build folder the katas are built in.
public struct Workspace: Sendable, Equatable {
    public var packageRoot: URL
    public var lessonsDirectory: URL
    public var progressFile: URL
    /// The SwiftPM build folder (`--scratch-path`) that `lessons` runs `swift test` and `swift run` in; nil for
    /// SwiftPM's default, `.build`. Sharing the folder `lessons` itself was built in avoids a second full build.
    public var scratchPath: URL?

    /// The progress file's name in the package root (ignored by git, see `lessons/README.md`).
    public static let progressFileName = ".lessons-progress.json"

    public init(packageRoot: URL, lessonsDirectory: URL? = nil, progressFile: URL? = nil, scratchPath: URL? = nil) {
        self.packageRoot = packageRoot.standardizedFileURL
        self.scratchPath = scratchPath?.standardizedFileURL
        self.lessonsDirectory = (lessonsDirectory ?? packageRoot.appendingPathComponent("lessons")).standardizedFileURL
        self.progressFile = (progressFile ?? packageRoot.appendingPathComponent(Self.progressFileName))
            .standardizedFileURL
    }

    public var manifestFile: URL { lessonsDirectory.appendingPathComponent("manifest.json") }

    /// The options that select the build folder: `--scratch-path DIR`, or none for SwiftPM's default.
    public var buildOptions: [String] {
        scratchPath.map { ["--scratch-path", $0.path] } ?? []
    }

    /// The build folder itself: ``scratchPath``, or SwiftPM's default `.build`.
    public var buildFolder: URL {
        scratchPath ?? packageRoot.appendingPathComponent(".build", isDirectory: true)
    }

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

    /// The build folder an executable was built in, when it was built inside the package: for
    /// `<root>/.build-katas/x86_64-unknown-linux-gnu/debug/lessons` that is `<root>/.build-katas`. Nil otherwise
    /// (an installed copy), and then SwiftPM's default applies.
    public static func scratchPath(ofExecutable executable: URL?, packageRoot: URL) -> URL? {
        guard let executable else { return nil }
        let root = packageRoot.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let path = executable.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        // At least <scratch>/<configuration>/<executable> below the root.
        guard path.count >= root.count + 3, Array(path.prefix(root.count)) == root else { return nil }
        let folder = path[root.count]
        guard folder.hasPrefix(".") else { return nil }
        return packageRoot.appendingPathComponent(folder, isDirectory: true).standardizedFileURL
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
