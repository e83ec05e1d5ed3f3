import Foundation

/// Checks this machine for what the workbook needs (Swift, pkg-config, SQLite's and cmark's development
/// files) and what some commands use (git, Chromium), and names the command that installs what is missing.
public struct Doctor: Sendable {
    public struct Check: Equatable, Sendable {
        public var name: String
        public var required: Bool
        /// The version or detail found, nil when missing.
        public var found: String?
        /// Why it matters, shown when missing.
        public var purpose: String
        public var aptPackage: String?
        public var brewPackage: String?
        /// Set when it is present but not good enough (an old Swift).
        public var problem: String?

        public var isOK: Bool { found != nil && problem == nil }
    }

    /// How the doctor looks at the machine; tests replace it.
    public struct Probe: Sendable {
        /// The first line a command prints, nil when it cannot run.
        public var firstLine: @Sendable ([String]) -> String?
        public var hasAptGet: Bool
        public var hasBrew: Bool
        public var isRoot: Bool

        public static var system: Probe {
            Probe(firstLine: { ProcessRunner.firstLine($0) },
                  hasAptGet: FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get"),
                  hasBrew: ["/opt/homebrew/bin/brew", "/usr/local/bin/brew"].contains {
                      FileManager.default.isExecutableFile(atPath: $0)
                  },
                  isRoot: getuid() == 0)
        }
    }

    public var probe: Probe

    public init(probe: Probe = .system) {
        self.probe = probe
    }

    public func checks() -> [Check] {
        var swift = Check(name: "Swift", required: true, found: nil, purpose: "builds the workbook (6.1 or later)",
                          aptPackage: nil, brewPackage: nil)
        if let line = probe.firstLine(["swift", "--version"]) {
            let version = Self.version(after: "Swift version ", in: line) ?? line
            swift.found = version
            let parts = version.split(separator: ".").compactMap { Int($0) }
            if parts.count >= 2, (parts[0], parts[1]) < (6, 1) {
                swift.problem = "Swift \(version) is too old: the package needs 6.1 or later"
            }
        }
        let pkgConfig = Check(name: "pkg-config", required: true, found: probe.firstLine(["pkg-config", "--version"]),
                              purpose: "lets SwiftPM find SQLite and cmark", aptPackage: "pkg-config", brewPackage: "pkg-config")
        let sqlite = Check(name: "SQLite", required: true,
                           found: probe.firstLine(["pkg-config", "--modversion", "sqlite3"]),
                           purpose: "the store under Persistence", aptPackage: "libsqlite3-dev", brewPackage: "sqlite")
        var cmark = Check(name: "cmark", required: true,
                          found: probe.firstLine(["pkg-config", "--modversion", "libcmark"]),
                          purpose: "renders the lessons", aptPackage: "libcmark-dev", brewPackage: "cmark")
        if let found = cmark.found { cmark.found = "\(found) (linked: \(MarkdownParser.cmarkVersion))" }
        let git = Check(name: "git", required: false,
                        found: probe.firstLine(["git", "--version"]).map { $0.replacingOccurrences(of: "git version ", with: "") },
                        purpose: "lessons reset restores starters from git", aptPackage: "git", brewPackage: "git")
        // "Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)": the number is what matters.
        let chromiumVersion = (probe.firstLine(["chromium", "--version"])
            ?? probe.firstLine(["chromium-browser", "--version"])).map { Self.version(after: "Chromium ", in: $0) ?? $0 }
        let chromium = Check(name: "Chromium", required: false, found: chromiumVersion,
                             purpose: "scripts/check-handouts checks the HTML handouts in a real browser",
                             aptPackage: "chromium", brewPackage: nil)
        return [swift, pkgConfig, sqlite, cmark, git, chromium]
    }

    /// The report and whether every required check passed.
    public func report(colors: Bool) -> (text: String, ok: Bool) {
        let checks = self.checks()
        func paint(_ text: String, _ style: TextStyle) -> String { StyledText(text, style).rendered(colors: colors) }
        var lines: [String] = []
        let nameWidth = checks.map(\.name.count).max() ?? 0
        for check in checks {
            let name = check.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            if check.isOK {
                lines.append("  " + paint("✓", TextStyle(color: .green)) + " \(name)  \(check.found!)")
            } else {
                let mark = check.required ? paint("✗", TextStyle(bold: true, color: .red)) : paint("-", TextStyle(color: .yellow))
                let state = check.problem ?? "not found"
                let kind = check.required ? "needed" : "optional"
                lines.append("  \(mark) \(name)  \(state) — \(kind): \(check.purpose)")
            }
        }
        let missingRequired = checks.filter { $0.required && !$0.isOK }
        let missingOptional = checks.filter { !$0.required && !$0.isOK }
        lines.append("")
        if missingRequired.isEmpty {
            lines.append("Everything the workbook needs is here.")
        } else {
            lines.append("Missing: " + missingRequired.map(\.name).joined(separator: ", ") + ".")
        }
        if let command = installCommand(for: missingRequired) { lines.append("Install with: \(command)") }
        if missingRequired.contains(where: { $0.name == "Swift" }) {
            lines.append("Swift itself: install Swift 6.1 or later for your system (see swift.org/install).")
        }
        if let command = installCommand(for: missingOptional) { lines.append("Optional extras: \(command)") }
        return (lines.joined(separator: "\n") + "\n", missingRequired.isEmpty)
    }

    /// `sudo apt-get install -y …` on Debian/Ubuntu, `brew install …` on macOS, nil when nothing to install.
    public func installCommand(for checks: [Check]) -> String? {
        if probe.hasAptGet {
            let packages = checks.compactMap(\.aptPackage)
            guard !packages.isEmpty else { return nil }
            return (probe.isRoot ? "" : "sudo ") + "apt-get install -y " + packages.joined(separator: " ")
        }
        let packages = checks.compactMap(\.brewPackage)
        guard !packages.isEmpty else { return nil }
        return probe.hasBrew ? "brew install " + packages.joined(separator: " ")
            : "install " + packages.joined(separator: ", ") + " with your package manager"
    }

    static func version(after prefix: String, in line: String) -> String? {
        guard let range = line.range(of: prefix) else { return nil }
        return line[range.upperBound...].split(separator: " ").first.map(String.init)
    }
}
