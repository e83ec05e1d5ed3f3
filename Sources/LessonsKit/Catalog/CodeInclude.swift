/// An include written in a lesson: a fenced code block with an empty body whose info string names the code,
/// e.g. ```` ```swift include=Sources/Examples/05-saving-safely/main.swift#cured ````.
public struct CodeInclude: Equatable, Sendable {
    /// Path relative to the package root.
    public var path: String
    /// The region's name; nil includes the whole file.
    public var region: String?

    /// `path#region` as written, shown under the code as its origin.
    public var reference: String { region.map { "\(path)#\($0)" } ?? path }

    /// Reads the `include=` word of an info string, if any.
    public init?(info: String) {
        let words = info.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let word = words.first(where: { $0.hasPrefix("include=") }) else { return nil }
        let target = word.dropFirst("include=".count)
        if let hash = target.firstIndex(of: "#") {
            path = String(target[..<hash])
            let name = String(target[target.index(after: hash)...])
            region = name.isEmpty ? nil : name
        } else {
            path = String(target)
            region = nil
        }
    }
}
