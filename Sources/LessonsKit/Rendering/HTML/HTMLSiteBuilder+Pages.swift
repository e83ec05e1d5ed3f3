extension HTMLSiteBuilder {
    private func escape(_ text: String) -> String { HTMLEscaping.escape(text) }

    // MARK: Lesson page

    func lessonPage(_ page: LoadedLesson, all loaded: [LoadedLesson], codeFiles: [CodeFile]) -> String {
        let lesson = page.lesson, language = page.language
        let strings = HandoutStrings(language: language)
        let renderer = HTMLRenderer(options: HTMLRenderer.Options(
            linkHref: linkHref(from: page, all: loaded, printPage: false),
            imageSource: imageSource(for: page)))
        let (title, output) = renderLesson(page, renderer: renderer)

        var neighbours = ""
        let numbers = Array(Set(loaded.map(\.lesson.number))).sorted()
        if let index = numbers.firstIndex(of: lesson.number) {
            if index > 0, let previous = neighbourPage(numbers[index - 1], language, loaded) {
                neighbours += "<a href=\"\(escape(pageName(previous.lesson, previous.language)))\" rel=\"prev\">← "
                    + "\(previous.lesson.number). \(escape(previous.lesson.title.text(in: previous.language)))</a>"
            }
            if index + 1 < numbers.count, let next = neighbourPage(numbers[index + 1], language, loaded) {
                neighbours += "<a href=\"\(escape(pageName(next.lesson, next.language)))\" rel=\"next\">"
                    + "\(next.lesson.number). \(escape(next.lesson.title.text(in: next.language))) →</a>"
            }
        }
        var body = "<nav class=\"pages\"><a href=\"index.html\">\(strings.allLessons)</a>" + neighbours
        body += "<span class=\"spacer\"></span>"
        body += languageSwitch(page, loaded: loaded, printPage: false)
        body += "<a href=\"all.html#\(sectionID(lesson, language))\">\(strings.printVersion)</a></nav>\n"
        body += "<p class=\"kicker\">\(strings.lesson(lesson.number, of: lessons.count))</p>\n"
        body += title
        body += tableOfContents(output.headings, strings: strings)
        body += output.html
        body += meta(page, codeFiles: codeFiles, pathPrefix: "")
        // The same way on at the end, where a reader who finished the lesson is.
        body += "<nav class=\"pages bottom\"><a href=\"index.html\">\(strings.allLessons)</a>\(neighbours)</nav>\n"
        let pageTitle = "\(lesson.number). \(lesson.title.text(in: language)) — \(catalog.manifest.title)"
        return HTMLPage(title: pageTitle, language: language, body: body).rendered
    }

    private func neighbourPage(_ number: Int, _ language: Language, _ loaded: [LoadedLesson]) -> LoadedLesson? {
        guard let lesson = lessons.first(where: { $0.number == number }) else { return nil }
        return page(for: lesson, language: language, among: loaded)
    }

    /// Renders the text; its first-level heading becomes the page title, or the manifest's title stands in.
    private func renderLesson(_ page: LoadedLesson, renderer: HTMLRenderer) -> (String, HTMLRenderer.Output) {
        var document = page.document
        var title = "<h1 id=\"\(renderer.options.idPrefix)title\">\(escape(page.lesson.title.text(in: page.language)))</h1>\n"
        if case .heading(1, let inlines)? = document.blocks.first?.kind {
            title = "<h1 id=\"\(renderer.options.idPrefix)title\">\(renderer.inlineHTML(inlines))</h1>\n"
            document.blocks.removeFirst()
        }
        return (title, renderer.render(document))
    }

    private func imageSource(for page: LoadedLesson) -> @Sendable (String) -> String? {
        let local = Dictionary(uniqueKeysWithValues: page.images.keys.map { ($0, mediaPath(page.lesson, $0)) })
        return { local[$0] }
    }

    private func languageSwitch(_ page: LoadedLesson, loaded: [LoadedLesson], printPage: Bool) -> String {
        let versions = loaded.filter { $0.lesson.number == page.lesson.number }
        guard versions.count > 1 else { return "" }
        var html = "<span class=\"languages\">\(HandoutStrings(language: page.language).languageLabel):"
        for version in versions {
            if version.language == page.language {
                html += "<strong lang=\"\(version.language.rawValue)\">\(version.language.nativeName)</strong>"
            } else {
                let href = printPage ? "#" + sectionID(version.lesson, version.language)
                    : pageName(version.lesson, version.language)
                html += "<a href=\"\(escape(href))\" hreflang=\"\(version.language.rawValue)\" "
                    + "lang=\"\(version.language.rawValue)\">\(version.language.nativeName)</a>"
            }
        }
        return html + "</span>"
    }

    private func tableOfContents(_ headings: [HTMLRenderer.Heading], strings: HandoutStrings) -> String {
        let entries = headings.filter { $0.level == 2 || $0.level == 3 }
        guard entries.count >= 2 else { return "" }
        var html = "<nav class=\"toc\"><h2>\(strings.contents)</h2>\n<ul>\n"
        var inSub = false
        for (index, heading) in entries.enumerated() {
            if heading.level == 3 && !inSub && index > 0 {
                html.removeLast(6) // reopen the previous item: drop its "</li>\n"
                html += "\n<ul>\n"
                inSub = true
            } else if heading.level == 2 && inSub {
                html += "</ul></li>\n"
                inSub = false
            }
            html += "<li><a href=\"#\(escape(heading.id))\">\(escape(heading.text))</a></li>\n"
        }
        if inSub { html += "</ul></li>\n" }
        return html + "</ul></nav>\n"
    }

    private func meta(_ page: LoadedLesson, codeFiles: [CodeFile], pathPrefix: String) -> String {
        let lesson = page.lesson
        let strings = HandoutStrings(language: page.language)
        var html = "<section class=\"meta\"><dl>\n<dt>\(strings.katas)</dt><dd>"
        if let kata = codeFiles.first(where: { $0.path == lesson.katas.file }) {
            html += "<a href=\"\(pathPrefix)\(escape(kata.page))\"><code>\(escape(kata.path))</code></a>"
        } else {
            html += "<code>\(escape(lesson.katas.file))</code> (\(strings.notWrittenYet))"
        }
        html += " — <code>swift run lessons check \(lesson.number)</code></dd>\n"
        let starters = codeFiles.filter { file in
            file.role == .starter && lesson.starter.contains { file.path == $0 || file.path.hasPrefix($0 + "/") }
        }
        html += "<dt>\(strings.workIn)</dt><dd>"
        if starters.isEmpty {
            html += lesson.starter.map { "<code>\(escape($0))</code>" }.joined(separator: ", ")
                + " (\(strings.notWrittenYet))"
        } else {
            html += starters.map { "<a href=\"\(pathPrefix)\(escape($0.page))\"><code>\(escape($0.path))</code></a>" }
                .joined(separator: ", ")
        }
        let solutions = codeFiles.filter { file in
            file.role == .solution && lesson.solution.contains { file.path == $0 || file.path.hasPrefix($0 + "/") }
        }
        if !solutions.isEmpty {
            html += "</dd>\n<dt>\(strings.referenceSolution)</dt><dd>"
                + solutions.map { "<a href=\"\(pathPrefix)\(escape($0.page))\"><code>\(escape($0.path))</code></a>" }
                    .joined(separator: ", ")
        }
        html += "</dd>\n<dt>\(strings.runExample)</dt><dd><code>swift run lessons run \(lesson.number)</code></dd>\n"
        html += "<dt>\(strings.basedOn)</dt><dd><ul>\n"
        for source in catalog.sourceDescriptions(of: lesson) { html += "<li>\(escape(source))</li>\n" }
        return html + "</ul></dd>\n</dl></section>\n"
    }

    // MARK: Print page

    func printPage(_ loaded: [LoadedLesson], codeFiles: [CodeFile]) -> String {
        let strings = HandoutStrings(language: .en)
        var body = "<p class=\"kicker\">\(lessons.count) lessons</p>\n<h1>\(escape(catalog.manifest.title))</h1>\n"
        body += "<nav class=\"toc\" id=\"page-toc\"><h2>\(strings.contents)</h2>\n<ol>\n"
        var sections = ""
        for lesson in lessons {
            let versions = loaded.filter { $0.lesson.number == lesson.number }
            guard let first = versions.first else {
                body += "<li value=\"\(lesson.number)\">\(escape(lesson.title.text(in: .en)))"
                    + " <span class=\"coming\">\(strings.coming)</span></li>\n"
                continue
            }
            body += "<li value=\"\(lesson.number)\"><a href=\"#\(sectionID(lesson, first.language))\">"
                + "\(escape(lesson.title.text(in: first.language)))</a>"
            for other in versions.dropFirst() {
                body += " · <a href=\"#\(sectionID(lesson, other.language))\" lang=\"\(other.language.rawValue)\">"
                    + "\(escape(lesson.title.text(in: other.language)))</a>"
            }
            body += "</li>\n"
            for page in versions {
                let renderer = HTMLRenderer(options: HTMLRenderer.Options(
                    idPrefix: idPrefix(lesson, page.language),
                    linkHref: linkHref(from: page, all: loaded, printPage: true),
                    imageSource: imageSource(for: page)))
                let (title, output) = renderLesson(page, renderer: renderer)
                let pageStrings = HandoutStrings(language: page.language)
                sections += "<section class=\"lesson\" id=\"\(sectionID(lesson, page.language))\" "
                    + "lang=\"\(page.language.rawValue)\">\n"
                sections += "<p class=\"kicker\">\(pageStrings.lesson(lesson.number, of: lessons.count))</p>\n"
                sections += title + output.html + meta(page, codeFiles: codeFiles, pathPrefix: "")
                sections += "</section>\n"
            }
        }
        let solutions = codeFiles.filter { $0.role == .solution }
        if !solutions.isEmpty {
            body += "<li class=\"appendix\"><a href=\"#solutions\">\(strings.solutionsAppendix)</a></li>\n"
            sections += solutionsAppendix(solutions, strings: strings)
        }
        body += "</ol></nav>\n" + sections
        return HTMLPage(title: "\(catalog.manifest.title) — all lessons", language: .en, body: body).rendered
    }

    /// The teacher's appendix at the end of the print page: every solution file, lesson by lesson.
    private func solutionsAppendix(_ files: [CodeFile], strings: HandoutStrings) -> String {
        var html = "<section class=\"lesson appendix\" id=\"solutions\">\n<h1>\(strings.solutionsAppendix)</h1>\n"
        html += "<p>For teachers. A learner sees a lesson's solution with <code>swift run lessons solution N</code> "
            + "once its katas pass.</p>\n"
        for file in files {
            html += "<h2>\(file.lesson.number). <code>\(escape(file.path))</code></h2>\n"
            let source = catalog.workspace.resolve(file.path).flatMap { try? String(contentsOf: $0, encoding: .utf8) }
            html += HTMLRenderer.codeBlock(source ?? "", language: "swift")
        }
        return html + "</section>\n"
    }

    // MARK: Index

    func indexPage(_ loaded: [LoadedLesson]) -> String {
        let strings = HandoutStrings(language: .en)
        let writtenCount = Set(loaded.map(\.lesson.number)).count
        var body = "<nav class=\"pages\"><span class=\"spacer\"></span><a href=\"all.html\">"
            + "\(strings.printVersion) (all lessons on one page)</a></nav>\n"
        body += "<h1>\(escape(catalog.manifest.title))</h1>\n"
        body += "<p>Read a lesson, then make its katas pass: <code>swift run lessons check N</code>. "
            + "\(writtenCount) of \(lessons.count) lessons are written; the others are listed as coming.</p>\n"
        body += "<ol class=\"lesson-list\">\n"
        for lesson in lessons {
            let versions = loaded.filter { $0.lesson.number == lesson.number }
            body += "<li id=\"\(sectionID(lesson, lesson.languages[0]))\"><span class=\"number\">\(lesson.number)</span><div>"
            let title = escape(lesson.title.text(in: .en))
            if let first = versions.first(where: { $0.language == .en }) ?? versions.first {
                body += "<a class=\"title\" href=\"\(escape(pageName(lesson, first.language)))\">\(title)</a>"
                if versions.count > 1 {
                    body += "<span class=\"languages\">" + versions.map { version in
                        "<a href=\"\(escape(pageName(lesson, version.language)))\" hreflang=\"\(version.language.rawValue)\" "
                            + "lang=\"\(version.language.rawValue)\">\(version.language.nativeName)</a>"
                    }.joined() + "</span>"
                }
            } else {
                body += "<span class=\"title\">\(title)</span><span class=\"coming\">\(strings.coming)</span>"
            }
            body += "\n<p>\(escape(lesson.summary.text(in: .en)))</p>\n"
            body += "<p class=\"sources\">\(strings.basedOn): "
                + escape(catalog.sourceDescriptions(of: lesson).joined(separator: " · ")) + "</p>\n"
            body += "</div></li>\n"
        }
        body += "</ol>\n"
        if withSolutions {
            body += "<p class=\"appendix\"><a href=\"all.html#solutions\">\(strings.solutionsAppendix)</a> "
                + "(for teachers)</p>\n"
        }
        return HTMLPage(title: catalog.manifest.title, language: .en, body: body).rendered
    }
}
