import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Every value comes back from the store exactly as it was saved, and binds as a predicate argument exactly as
/// given — NUL bytes, non-ASCII text and empty values included.
final class ValueRoundTripTests: PersistenceTestCase {
    func testStringsWithNULBytesAreSavedWhole() throws {
        let texts = ["a\0b", "\0", "Ann\0", "\0\0x\0", "naïve\0日本", ""]
        for text in texts {
            let sample = Sample(context: context)
            sample.text = text
            try context.save()
            let reader = container.newBackgroundContext()
            let stored: String? = try reader.performAndWait {
                let request: FetchRequest<Sample> = Sample.fetchRequest()
                request.predicate = FetchPredicate(format: "SELF == %@", sample)
                return try reader.fetch(request).first?.text
            }
            XCTAssertEqual(stored.map { Array($0.utf8) }, Array(text.utf8), "\(text.debugDescription) was not stored whole")
            context.delete(sample)
            try context.save()
        }
    }

    func testEveryTypeRoundTripsExactly() throws {
        let sample = Sample(context: context)
        sample.text = "x\0y\u{1F600}"
        sample.small = NSNumber(value: Int16.min)
        sample.medium = NSNumber(value: Int32.max)
        sample.large = NSNumber(value: Int64.min)
        sample.real = -0.1
        sample.single = 1.5
        sample.flag = false
        sample.when = Date(timeIntervalSinceReferenceDate: 123_456.789)
        sample.identifier = UUID()
        sample.link = URL(string: "https://example.com/a%00b?q=%C3%A9")
        sample.bytes = Data([0, 1, 0, 255, 0])
        sample.amount = Decimal(string: "12345678901234567890.123")
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let samples = try reader.fetch(Sample.fetchRequest())
            XCTAssertEqual(samples.count, 1)
            let stored = try XCTUnwrap(samples.first)
            XCTAssertEqual(stored.text, sample.text)
            XCTAssertEqual(stored.small, sample.small)
            XCTAssertEqual(stored.medium, sample.medium)
            XCTAssertEqual(stored.large, sample.large)
            XCTAssertEqual(stored.real, sample.real)
            XCTAssertEqual(stored.single, sample.single)
            XCTAssertEqual(stored.flag, sample.flag)
            XCTAssertEqual(stored.when, sample.when)
            XCTAssertEqual(stored.identifier, sample.identifier)
            XCTAssertEqual(stored.link, sample.link)
            XCTAssertEqual(stored.bytes, sample.bytes)
            XCTAssertEqual(stored.amount, sample.amount)
        }
    }

    /// `text == "Ann\0"` must match the same objects in SQL as in memory: "Ann\0" only, never "Ann".
    func testNULBytesInPredicateArgumentsAreBoundWhole() throws {
        for text in ["Ann", "Ann\0", "Ann\0x"] {
            Sample(context: context).text = text
        }
        let formats = ["text == %@", "text != %@", "text BEGINSWITH %@", "text CONTAINS %@", "text ENDSWITH %@",
                       "text ==[c] %@", "text IN %@", "text > %@"]
        for format in formats {
            let argument: Any = format.hasSuffix("IN %@") ? ["Ann\0"] : "Ann\0"
            let predicate = FetchPredicate(format: format, argument)
            let request: FetchRequest<Sample> = Sample.fetchRequest()
            request.predicate = predicate
            let unsaved = Set(try context.fetch(request).compactMap(\.text))
            try context.save()
            let saved = Set(try context.fetch(request).compactMap(\.text))
            let reader = container.newBackgroundContext()
            let stored = try reader.performAndWait { Set(try reader.fetch(request).compactMap(\.text)) }
            XCTAssertEqual(saved, unsaved, "\(format): SQL and memory disagree")
            XCTAssertEqual(stored, unsaved, "\(format): SQL and memory disagree")
        }
        let request: FetchRequest<Sample> = Sample.fetchRequest()
        request.predicate = FetchPredicate(format: "text == %@", "Ann\0")
        let reader = container.newBackgroundContext()
        XCTAssertEqual(try reader.performAndWait { try reader.fetch(request).map(\.text) }, ["Ann\0"])
    }
}
