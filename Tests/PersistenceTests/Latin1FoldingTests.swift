import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// The Latin-1 table folds exactly as Foundation does, character by character and in whole strings.
final class Latin1FoldingTests: XCTestCase {
    private func foundationFold(_ string: String, _ folding: StringComparison.Options) -> String {
        var options: String.CompareOptions = []
        if folding.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if folding.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        return string.folding(options: options, locale: nil)
    }

    private func tableFold(_ string: String, _ folding: StringComparison.Options) -> String? {
        var string = string
        return string.withUTF8 { Latin1Folding.fold($0, options: folding) }
    }

    func testEveryLatin1CharacterAndRandomStringsFoldAsFoundationFoldsThem() throws {
        let foldings: [StringComparison.Options] = [[.caseInsensitive], [.diacriticInsensitive],
                                                   [.caseInsensitive, .diacriticInsensitive]]
        let characters = (0..<256).map { String(Character(Unicode.Scalar(UInt8($0)))) }
        var random = SeededGenerator(seed: 0x1A71)
        var strings = characters + ["Crème Brûlée", "STRAßE", "Ærø ÿ", "LáSÉrBèAmZ", "µ ß ÿ ð Þ", "a\u{0}é"]
        for _ in 0..<500 {
            strings.append((0..<Int.random(in: 1...12, using: &random))
                .map { _ in characters[Int.random(in: 1..<256, using: &random)] }.joined())
        }
        for folding in foldings {
            for string in strings {
                let folded = try XCTUnwrap(tableFold(string, folding), "\(string.unicodeScalars.map(\.value))")
                XCTAssertEqual(folded, foundationFold(string, folding),
                               "\(string.unicodeScalars.map(\.value)) under \(folding.rawValue)")
            }
        }
    }

    func testCharactersBeyondLatin1AndBrokenBytesAreLeftToFoundation() {
        XCTAssertNil(tableFold("Ελλάδα", [.caseInsensitive]))
        XCTAssertNil(tableFold("e\u{301}", [.diacriticInsensitive]), "a combining mark is beyond Latin-1")
        let broken: [UInt8] = [0x61, 0xC3]
        XCTAssertNil(broken.withUnsafeBufferPointer { Latin1Folding.fold($0, options: [.caseInsensitive]) })
        XCTAssertEqual(StringComparison.fold("Ελλάδα", options: [.caseInsensitive, .diacriticInsensitive]),
                       foundationFold("Ελλάδα", [.caseInsensitive, .diacriticInsensitive]))
    }
}
