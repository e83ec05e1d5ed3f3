import Foundation

/// The code a kata run is built against: the learner's starters (`Sources/Workbook`, the default build), the
/// reference solutions (`--traits Solutions`) or the decoys (`--traits Decoys`).
///
/// A trait is a compilation condition for every target of the package, so switching it recompiles Persistence
/// too (about 30 s on two cores). Solutions and decoys are therefore built in folders of their own inside the
/// build folder, and the learner's build is never switched back and forth.
public enum KataSubject: String, Sendable, CaseIterable {
    case starters
    case solutions
    case decoys

    /// The SwiftPM trait that selects this code; nil for the default build.
    public var trait: String? {
        switch self {
        case .starters: return nil
        case .solutions: return "Solutions"
        case .decoys: return "Decoys"
        }
    }

    /// Where the code lives, for messages.
    public var sourceFolder: String {
        switch self {
        case .starters: return "Sources/Workbook"
        case .solutions: return "Sources/Solutions"
        case .decoys: return "Sources/Decoys"
        }
    }

    /// The `--scratch-path` for this subject: the workspace's build folder for the starters, a folder inside it
    /// for the others (`.build/lessons/solutions`).
    public func scratchPath(in workspace: Workspace) -> URL? {
        guard self != .starters else { return workspace.scratchPath }
        return KataSubject.starters.buildFolder(in: workspace).appendingPathComponent("lessons/\(rawValue)", isDirectory: true)
    }

    /// The build folder itself: ``scratchPath(in:)``, or SwiftPM's default `.build` where that is nil.
    public func buildFolder(in workspace: Workspace) -> URL {
        scratchPath(in: workspace) ?? workspace.packageRoot.appendingPathComponent(".build", isDirectory: true)
    }

    /// The options that select this build: `--scratch-path DIR --traits NAME`, as far as they apply.
    public func buildOptions(in workspace: Workspace) -> [String] {
        var options: [String] = []
        if let scratch = scratchPath(in: workspace) { options += ["--scratch-path", scratch.path] }
        if let trait { options += ["--traits", trait] }
        return options
    }
}
