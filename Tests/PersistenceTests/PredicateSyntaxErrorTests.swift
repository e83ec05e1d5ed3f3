import XCTest
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence

/// Malformed format strings: each is rejected with a syntax error that says what is wrong and where.
final class PredicateSyntaxErrorTests: XCTestCase {
    /// Asserts that `format` fails with a syntax error at `offset` whose message contains `fragment`.
    private func assertSyntaxError(_ format: String, at offset: Int, _ fragment: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        do {
            let predicate = try FetchPredicate(parsing: format)
            XCTFail("\(format) parsed as \(predicate)", file: file, line: line)
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.kind, .syntax, "\(format): \(error)", file: file, line: line)
            XCTAssertEqual(error.offset, offset, "\(format): \(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), "\(format): '\(error.message)' lacks '\(fragment)'",
                          file: file, line: line)
            XCTAssertEqual(error.format, format, file: file, line: line)
        } catch {
            XCTFail("\(format) threw \(error)", file: file, line: line)
        }
    }

    func testDescriptionPointsAtTheColumn() {
        do {
            _ = try FetchPredicate(parsing: "name == AND year > 3")
            XCTFail("parsed")
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.column, 9)
            XCTAssertEqual(error.description, """
                Predicate syntax error at column 9: expected a value after '=='
                  name == AND year > 3
                          ^
                """)
            XCTAssertEqual(error.errorDescription, error.description)
        } catch {
            XCTFail("threw \(error)")
        }
    }

    func testCaretStaysUnderTheColumnWhenTheFormatHasLineBreaks() {
        do {
            _ = try FetchPredicate(parsing: "name == 'a'\nAND\tyear >")
            XCTFail("parsed")
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.offset, 22)
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.count, 3)
            XCTAssertEqual(lines[1], "  name == 'a' AND year >")
            XCTAssertEqual(lines[2], "  " + String(repeating: " ", count: 22) + "^")
        } catch {
            XCTFail("threw \(error)")
        }
    }

    func testMissingPieces() {
        assertSyntaxError("", at: 0, "empty")
        assertSyntaxError("   ", at: 0, "empty")
        assertSyntaxError("name ==", at: 7, "expected a value after '==' but the format ends")
        assertSyntaxError("name", at: 4, "expected a comparison operator")
        assertSyntaxError("name 'x'", at: 5, "expected a comparison operator")
        assertSyntaxError("== 3", at: 0, "expected a key path or a value")
        assertSyntaxError("name == 1 AND", at: 13, "expected a key path or a value")
        assertSyntaxError("(name == 1", at: 10, "expected ')' to close the '(' at column 1")
        assertSyntaxError("()", at: 1, "expected a key path or a value")
        assertSyntaxError("name == 1)", at: 9, "expected AND, OR or the end of the format")
        assertSyntaxError("name == 1 year == 2", at: 10, "expected AND, OR or the end")
        assertSyntaxError("NOT", at: 3, "expected a key path or a value")
        assertSyntaxError("ANY", at: 3, "expected a value after 'ANY'")
    }

    func testBadTokens() {
        assertSyntaxError("name == 'abc", at: 8, "unterminated string")
        assertSyntaxError("name == \"abc'", at: 8, "unterminated string")
        assertSyntaxError("name == 1 & year == 2", at: 10, "write &&")
        assertSyntaxError("name == 1 | year == 2", at: 10, "write ||")
        assertSyntaxError("name ~ 1", at: 5, "unexpected character '~'")
        assertSyntaxError("name == $", at: 9, "variable name")
        assertSyntaxError("# == 1", at: 1, "key after '#'")
        assertSyntaxError("name == %y", at: 8, "unknown format specifier '%y'")
        assertSyntaxError("name == 12abc", at: 10, "in the number")
        assertSyntaxError("name == 0x", at: 10, "expected digits")
        assertSyntaxError("name == 0b102", at: 8, "base-2")
        assertSyntaxError("name == 99999999999999999999", at: 8, "does not fit in 64 bits")
        assertSyntaxError("name == -'a'", at: 9, "expected a number after '-'")
        assertSyntaxError(#"name == '\u12'"#, at: 9, "four hex digits")
        assertSyntaxError(#"name == '\u{D800}'"#, at: 9, "not a Unicode scalar")
    }

    func testBadOptions() {
        assertSyntaxError("name CONTAINS[x] 'a'", at: 14, "unknown comparison option 'x'")
        assertSyntaxError("name CONTAINS[cx] 'a'", at: 15, "unknown comparison option 'x'")
        assertSyntaxError("name CONTAINS[] 'a'", at: 14, "expected comparison options")
        assertSyntaxError("name CONTAINS[c 'a'", at: 16, "expected ']'")
    }

    func testReservedWordsMustBeEscapedAtTheStart() {
        assertSyntaxError("in == 3", at: 0, "expected a key path or a value, found 'in'")
        assertSyntaxError("name == contains", at: 8, "expected a value after '=='")
        assertSyntaxError("name NOT IN {1}", at: 5, "write NOT (…)")
        assertSyntaxError("FUNCTION(name, 'uppercase') == 'A'", at: 0, "FUNCTION(…) is not supported")
    }

    func testBadKeyPaths() {
        assertSyntaxError("name. == 1", at: 6, "expected a key or %K after '.'")
        assertSyntaxError("@count > 1", at: 0, "needs a to-many key before it")
        assertSyntaxError("actors.@sum > 1", at: 7, "@sum needs a key after it")
        assertSyntaxError("actors.@count.age > 1", at: 14, "@count ends a key path")
        assertSyntaxError("items.@sum.x.@max.y > 1", at: 13, "only one collection operator")
        assertSyntaxError("actors.@foo > 1", at: 7, "unknown collection operator '@foo'")
        assertSyntaxError("actors.@ > 1", at: 8, "collection operator after '@'")
        assertSyntaxError("ANY 'x' == name", at: 4, "ANY needs a key path")
        assertSyntaxError("ALL actors.@count == 1", at: 4, "ALL needs a key path")
    }

    func testOperandsThatDoNotFitTheOperator() {
        assertSyntaxError("year BETWEEN {1}", at: 13, "BETWEEN needs a list of two values")
        assertSyntaxError("year BETWEEN {1, 2, 3}", at: 13, "this list has 3")
        assertSyntaxError("year BETWEEN 1", at: 13, "BETWEEN needs a list")
        assertSyntaxError("year == {1, 2}", at: 8, "use IN or BETWEEN")
        assertSyntaxError("year IN 3", at: 8, "IN needs a list")
        assertSyntaxError("{1, 2} == year", at: 0, "only CONTAINS takes one")
        assertSyntaxError("name BEGINSWITH 3", at: 16, "BEGINSWITH needs a string")
        assertSyntaxError("name LIKE TRUE", at: 10, "LIKE needs a string")
        assertSyntaxError("name MATCHES '(a'", at: 13, "not a valid regular expression")
        assertSyntaxError("name MATCHES 'a)|(b'", at: 13, "not a valid regular expression")
        assertSyntaxError("year IN {1, name}", at: 12, "a list may hold only constants")
        assertSyntaxError("year IN {1, {2}}", at: 12, "a list may hold only constants")
        assertSyntaxError("year IN {1 2}", at: 11, "expected ',' or '}'")
        assertSyntaxError("year IN (1, 2)", at: 8, "a list is written {a, b}")
    }

    func testBadCasts() {
        assertSyntaxError("d == CAST(1, 'NSFoo')", at: 13, "unknown CAST type")
        assertSyntaxError("d == CAST('nope', 'NSUUID')", at: 10, "cannot be cast to NSUUID")
        assertSyntaxError("d == CAST('x', 'NSDate')", at: 10, "cannot be cast to NSDate")
        assertSyntaxError("d == CAST('x-coredata://S/Movie/q1', 'NSManagedObjectID')", at: 10, "cannot be cast")
        assertSyntaxError("d == CAST(1 'NSDate')", at: 12, "expected ','")
        assertSyntaxError("d == CAST(1, 2)", at: 13, "type name")
        assertSyntaxError("d == CAST(1, 'NSDate'", at: 21, "expected ')' to close CAST")
        assertSyntaxError("d == CAST(name, 'NSDate')", at: 10, "CAST takes a constant")
    }
}
