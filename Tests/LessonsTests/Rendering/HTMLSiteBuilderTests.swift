import XCTest
@testable import LessonsKit

final class HTMLSiteBuilderTests: TemporaryFolderTestCase {
    private func buildSite(withSolutions: Bool = false) throws -> (URL, HTMLSiteBuilder.Report) {
        let out = temporary.appendingPathComponent("site")
        let report = try HTMLSiteBuilder(catalog: try fixtureCatalog(), withSolutions: withSolutions).write(into: out)
        return (out, report)
    }

    private func read(_ out: URL, _ path: String) throws -> String {
        try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
    }

    func testWritesIndexLessonPagesPrintPageCodePagesAndMedia() throws {
        let (_, report) = try buildSite()
        XCTAssertEqual(report.files, [
            "01-every-construct.html", "media/01-every-construct/diagram.svg", "02-two-languages.html",
            "02-two-languages.en.html", "all.html", "index.html",
            "code/Tests-LessonsTests-Katas-XCTestOutputParserTests.swift.html",
            "code/Sources-LessonsKit-Rendering-HTML-HTMLEscaping.swift.html",
        ])
        XCTAssertEqual(report.lessonPages, 3)
        XCTAssertEqual(report.comingLessons, [3])
    }

    func testSolutionsOnlyInATeachersCopy() throws {
        let (out, report) = try buildSite()
        XCTAssertFalse(report.files.contains { $0.contains("solution") }, "\(report.files)")
        XCTAssertFalse(try read(out, "all.html").contains("id=\"solutions\""))
        XCTAssertFalse(try read(out, "index.html").contains("Appendix"))
        XCTAssertFalse(try read(out, "01-every-construct.html").contains("Reference solution"))

        try FileManager.default.removeItem(at: out)
        let (teacher, teacherReport) = try buildSite(withSolutions: true)
        let solutionPage = "code/solution-Sources-LessonsKit-Rendering-HTML-HTMLEscaping.swift.html"
        XCTAssertEqual(teacherReport.files.last, solutionPage)
        XCTAssertTrue(try read(teacher, solutionPage).contains("Reference solution of lesson 1"))
        let all = try read(teacher, "all.html")
        XCTAssertTrue(all.contains("<section class=\"lesson appendix\" id=\"solutions\">"))
        XCTAssertTrue(all.contains("<h2>1. <code>Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift</code></h2>"))
        XCTAssertTrue(try read(teacher, "index.html").contains("<a href=\"all.html#solutions\">"))
        XCTAssertTrue(try read(teacher, "01-every-construct.html").contains("<dt>Reference solution</dt><dd><a href=\""
            + solutionPage + "\">"))
    }

    func testIndexListsEveryLessonAndMarksTheUnwrittenOneAsComing() throws {
        let (out, _) = try buildSite()
        let index = try read(out, "index.html")
        XCTAssertTrue(index.contains("<a class=\"title\" href=\"01-every-construct.html\">Every construct</a>"))
        XCTAssertTrue(index.contains("<span class=\"title\">Coming soon</span><span class=\"coming\">coming</span>"))
        XCTAssertTrue(index.contains("Русский"))
        XCTAssertTrue(index.contains("Practical Core Data (000): Unit testing; Setting up an in-memory SQLite store"))
        XCTAssertFalse(index.contains("03-coming-soon.html"))
    }

    func testLanguageSwitchOnBothVersions() throws {
        let (out, _) = try buildSite()
        let russian = try read(out, "02-two-languages.html"), english = try read(out, "02-two-languages.en.html")
        XCTAssertTrue(russian.contains("<html lang=\"ru\">"))
        XCTAssertTrue(russian.contains("<a href=\"02-two-languages.en.html\" hreflang=\"en\" lang=\"en\">English</a>"))
        XCTAssertTrue(english.contains("<a href=\"02-two-languages.html\" hreflang=\"ru\" lang=\"ru\">Русский</a>"))
        XCTAssertTrue(russian.contains("Все уроки"))
    }

    func testLessonPageLinksKataFileSourcesAndIncludedCode() throws {
        let (out, _) = try buildSite()
        let page = try read(out, "01-every-construct.html")
        XCTAssertTrue(page.contains("href=\"code/Tests-LessonsTests-Katas-XCTestOutputParserTests.swift.html\""))
        XCTAssertTrue(page.contains("<figcaption>Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift#escape</figcaption>"))
        XCTAssertTrue(page.contains("<li>Practical Core Data (000): Unit testing; Setting up an in-memory SQLite store</li>"))
        XCTAssertTrue(page.contains("<nav class=\"toc\">"))
        let unwritten = try read(out, "02-two-languages.html")
        XCTAssertTrue(unwritten.contains("<code>Tests/Katas/Kata02TwoLanguages.swift</code> (ещё не написано)"))
    }

    func testPrintPageHasEveryVersionAPageBreakClassAndNoNavigation() throws {
        let (out, _) = try buildSite()
        let all = try read(out, "all.html")
        XCTAssertEqual(all.components(separatedBy: "<section class=\"lesson\"").count - 1, 3)
        XCTAssertFalse(all.contains("<nav class=\"pages\">"))
        XCTAssertTrue(all.contains("section.lesson { break-before: page; }"))
        XCTAssertTrue(all.contains("<li value=\"3\">Coming soon <span class=\"coming\">coming</span></li>"))
        // Links between lessons stay inside the page.
        XCTAssertTrue(all.contains("<a href=\"#lesson-02-en\">the next lesson</a>"))
        XCTAssertTrue(all.contains("<a href=\"#l02-en-second-part\">a section of it</a>"))
    }

    func testPreviousAndNextAlsoAtTheBottomOfALesson() throws {
        let (out, _) = try buildSite()
        let page = try read(out, "01-every-construct.html")
        let next = "<a href=\"02-two-languages.en.html\" rel=\"next\">2. Two languages →</a>"
        XCTAssertEqual(page.components(separatedBy: next).count - 1, 2, "at the top and at the bottom")
        let bottom = try XCTUnwrap(page.range(of: "<nav class=\"pages bottom\">"))
        XCTAssertLessThan(try XCTUnwrap(page.range(of: "<section class=\"meta\">")).lowerBound, bottom.lowerBound)
        let second = try read(out, "02-two-languages.en.html")
        XCTAssertTrue(second.contains("<nav class=\"pages bottom\"><a href=\"index.html\">All lessons</a>"
            + "<a href=\"01-every-construct.html\" rel=\"prev\">← 1. Every construct</a></nav>"), second)
    }

    /// What the style sheet promises for print, phones and dark screens (checked in a browser by
    /// scripts/check-handouts).
    func testPrintWrapsCodeTablesScrollAndThereIsADarkScheme() throws {
        let css = HTMLStyleSheet.css
        let print = try XCTUnwrap(css.range(of: "@media print {")).upperBound
        let printRules = String(css[print...])
        XCTAssertTrue(printRules.contains("pre { white-space: pre-wrap; overflow-wrap: anywhere; overflow: visible;"))
        XCTAssertTrue(printRules.contains("figure.code, pre { break-inside: auto; }"))
        XCTAssertFalse(printRules.contains("pre, figure.code, table, blockquote { break-inside: avoid; }"))
        XCTAssertTrue(css.contains("display: block; width: max-content; max-width: 100%; overflow-x: auto; }"))
        XCTAssertTrue(css.contains("@media screen and (prefers-color-scheme: dark) {"))
        let (out, _) = try buildSite()
        XCTAssertTrue(try read(out, "index.html").contains("<meta name=\"color-scheme\" content=\"light dark\">"))
    }

    /// Self-contained: no network, no scripts; and every local link, with its anchor, points at something.
    func testSelfContainedAndEveryLocalLinkResolves() throws {
        try checkSelfContained(withSolutions: false)
        try FileManager.default.removeItem(at: temporary.appendingPathComponent("site"))
        try checkSelfContained(withSolutions: true)
    }

    private func checkSelfContained(withSolutions: Bool) throws {
        let (out, report) = try buildSite(withSolutions: withSolutions)
        for path in report.files where path.hasSuffix(".html") {
            let html = try read(out, path)
            XCTAssertFalse(html.contains("<script"), path)
            XCTAssertFalse(html.contains("src=\"http"), path)
            XCTAssertFalse(html.contains("<link rel=\"stylesheet\""), path)
            for href in attributeValues("href", in: html) where !href.hasPrefix("https:") && !href.hasPrefix("mailto:")
                && !href.hasPrefix("data:") {
                let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let folder = out.appendingPathComponent(path).deletingLastPathComponent()
                let target = parts[0].isEmpty ? out.appendingPathComponent(path) : folder.appendingPathComponent(parts[0])
                XCTAssertTrue(FileManager.default.fileExists(atPath: target.path), "\(path): \(href)")
                if parts.count == 2, let targetHTML = try? String(contentsOf: target, encoding: .utf8) {
                    XCTAssertTrue(targetHTML.contains("id=\"\(parts[1])\""), "\(path): anchor \(href)")
                }
            }
            for src in attributeValues("src", in: html) {
                XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(src).path), "\(path): \(src)")
            }
        }
    }

    func testABrokenIncludeStopsTheBuildWithFileAndLine() throws {
        let lessons = temporary.appendingPathComponent("lessons")
        try FileManager.default.copyItem(at: TestPaths.fixtureLessons, to: lessons)
        _ = try write("# Broken\n\ntext\n\n```swift include=Sources/Nowhere.swift#x\n```\n",
                      to: "lessons/02-two-languages/lesson.en.md")
        let catalog = try Catalog.load(Workspace(packageRoot: TestPaths.packageRoot, lessonsDirectory: lessons))
        XCTAssertThrowsError(try HTMLSiteBuilder(catalog: catalog).pages()) { error in
            let error = error as? LessonsError
            XCTAssertEqual(error?.line, 5)
            XCTAssertTrue(error?.file?.hasSuffix("lessons/02-two-languages/lesson.en.md") ?? false)
        }
    }

    private func attributeValues(_ name: String, in html: String) -> [String] {
        html.components(separatedBy: " \(name)=\"").dropFirst().compactMap { $0.split(separator: "\"").first }
            .map { String($0).replacingOccurrences(of: "&amp;", with: "&") }
    }
}
