import Foundation

/// Persistence-only API a lesson lets its code use, by the `@_spi` group Persistence declares it in.
///
/// Persistence's public API is meant to be Core Data's, without `NS`; what Core Data has no counterpart for (a test
/// harness, a debugging switch that is a launch argument on Apple platforms) is declared `@_spi(Group)`, so that
/// code sees it only through `@_spi(Group) import Persistence`. The compiler then proves that a starter, solution or
/// example without such an import uses none of it; `lessons verify` checks that every such import names a group the
/// lesson lists here, and that the lesson's text names it, so a learner is told what will differ in Xcode.
public struct StandIn: Equatable, Sendable, Decodable {
    /// The `@_spi` group, e.g. `ConcurrencyDebugging`.
    public var group: String
    /// Words the lesson's text must contain where it says what stands in for what (in each written language), e.g.
    /// `ConcurrencyDebugging.withViolationHandler`.
    public var namedAs: String

    public init(group: String, namedAs: String) {
        self.group = group
        self.namedAs = namedAs
    }

    /// Groups for Persistence's own tests and the katas' support code, which no lesson may let its code use.
    public static let reserved: Set<String> = ["TestHarness"]

    /// The `@_spi` groups a Swift source imports Persistence with, each with its 1-based line, and whether it
    /// imports Persistence `@testable` (which opens everything internal).
    static func imports(in source: String) -> (groups: [(group: String, line: Int)], testableLines: [Int]) {
        var groups: [(String, Int)] = []
        var testable: [Int] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard let importAt = words.firstIndex(of: "import"), importAt + 1 < words.count,
                  words[importAt + 1] == "Persistence" || words[importAt + 1].hasPrefix("Persistence."),
                  words[..<importAt].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "private",
                                                                         "package", "fileprivate"].contains($0) })
            else { continue }
            for attribute in words[..<importAt] {
                if attribute == "@testable" { testable.append(index + 1) }
                guard attribute.hasPrefix("@_spi("), attribute.hasSuffix(")") else { continue }
                groups.append((String(attribute.dropFirst(6).dropLast()), index + 1))
            }
        }
        return (groups, testable)
    }
}
