/// Renders a ``MarkdownDocument`` as an HTML fragment. All text is escaped; raw HTML in a lesson is shown as
/// text, never passed through, so a handout cannot be broken or scripted by its content.
public struct HTMLRenderer: Sendable {
    public struct Options: Sendable {
        /// Prepended to heading ids, so several lessons can share one page.
        public var idPrefix: String
        /// The `href` for a link destination, or nil to show only the link's text. The default keeps `https:`,
        /// `http:`, `mailto:` and `#anchor` links (anchors get `idPrefix`).
        public var linkHref: @Sendable (String) -> String?
        /// The `src` for an image, or nil to show the image as a link to its source instead.
        public var imageSource: @Sendable (String) -> String?

        public init(idPrefix: String = "",
                    linkHref: (@Sendable (String) -> String?)? = nil,
                    imageSource: @escaping @Sendable (String) -> String? = { _ in nil }) {
            self.idPrefix = idPrefix
            self.linkHref = linkHref ?? { destination in
                switch LinkTarget(destination) {
                case .external(let url): return url
                case .anchor(let anchor): return "#" + idPrefix + anchor
                case .lesson, .relative, .unsupported: return nil
                }
            }
            self.imageSource = imageSource
        }
    }

    /// A heading as it appears in a table of contents.
    public struct Heading: Equatable, Sendable {
        public var level: Int
        public var text: String
        public var id: String
    }

    public struct Output: Sendable {
        public var html: String
        public var headings: [Heading]
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    public func render(_ document: MarkdownDocument) -> Output {
        var state = State(anchors: HeadingAnchors(prefix: options.idPrefix))
        var html = ""
        for block in document.blocks { render(block, into: &html, state: &state, tight: false) }
        return Output(html: html, headings: state.headings)
    }

    /// Source code as a highlighted `<pre>` block (for kata and starter pages).
    public static func codeBlock(_ code: String, language: String?, origin: String? = nil) -> String {
        var html = ""
        renderCode(MarkdownCodeBlock(info: language ?? "", code: code, origin: origin), into: &html)
        return html
    }

    private struct State {
        var anchors: HeadingAnchors
        var headings: [Heading] = []
    }

    private func render(_ block: MarkdownBlock, into html: inout String, state: inout State, tight: Bool) {
        switch block.kind {
        case .paragraph(let inlines):
            // In a tight list the paragraph tags are left out, as CommonMark's reference renderer does.
            if tight {
                html += inlineHTML(inlines) + "\n"
            } else {
                html += "<p>" + inlineHTML(inlines) + "</p>\n"
            }
        case .heading(let level, let inlines):
            let text = inlines.plainText
            let id = state.anchors.id(for: text)
            state.headings.append(Heading(level: level, text: text, id: id))
            html += "<h\(level) id=\"\(HTMLEscaping.escape(id))\">" + inlineHTML(inlines) + "</h\(level)>\n"
        case .blockQuote(let children):
            html += "<blockquote>\n"
            for child in children { render(child, into: &html, state: &state, tight: false) }
            html += "</blockquote>\n"
        case .list(let list):
            switch list.style {
            case .bullet:
                html += "<ul>\n"
            case .ordered(let start, _):
                html += start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n"
            }
            for item in list.items {
                html += "<li>"
                if !list.isTight || item.first.map({ if case .paragraph = $0.kind { false } else { true } }) ?? false {
                    html += "\n"
                }
                for child in item { render(child, into: &html, state: &state, tight: list.isTight) }
                // A tight item's text closes on its own line end: `<li>text</li>`, as cmark writes it.
                if list.isTight, case .paragraph? = item.last?.kind, html.hasSuffix("\n") { html.removeLast() }
                html += "</li>\n"
            }
            if case .bullet = list.style { html += "</ul>\n" } else { html += "</ol>\n" }
        case .codeBlock(let code):
            Self.renderCode(code, into: &html)
        case .htmlBlock(let raw):
            let trimmed = raw.trimmingWhitespace
            // An HTML comment is an author's note (see lessons/README.md); any other HTML is shown as text.
            if trimmed.hasPrefix("<!--") && trimmed.hasSuffix("-->") { return }
            html += "<pre class=\"raw-html\"><code>" + HTMLEscaping.escape(trimmed) + "</code></pre>\n"
        case .thematicBreak:
            html += "<hr>\n"
        case .table(let table):
            renderTable(table, into: &html)
        }
    }

    private static func renderCode(_ code: MarkdownCodeBlock, into html: inout String) {
        let language = code.language ?? (code.origin?.hasSuffix(".swift") == true
            || code.origin?.contains(".swift#") == true ? "swift" : nil)
        let classAttribute = language.map { " class=\"language-\(HTMLEscaping.escape($0))\"" } ?? ""
        var body = ""
        if language == "swift" {
            for token in SwiftHighlighter.tokens(code.code) {
                let text = HTMLEscaping.escape(token.text)
                if let name = cssClass(for: token.kind) {
                    body += "<span class=\"\(name)\">\(text)</span>"
                } else {
                    body += text
                }
            }
        } else {
            body = HTMLEscaping.escape(code.code)
        }
        let pre = "<pre><code\(classAttribute)>" + body + "</code></pre>"
        if let origin = code.origin {
            html += "<figure class=\"code\">\n<figcaption>" + HTMLEscaping.escape(origin) + "</figcaption>\n"
                + pre + "\n</figure>\n"
        } else {
            html += pre + "\n"
        }
    }

    static func cssClass(for kind: SwiftHighlighter.Token.Kind) -> String? {
        switch kind {
        case .plain: return nil
        case .keyword: return "kw"
        case .type: return "ty"
        case .string: return "st"
        case .number: return "nu"
        case .comment: return "co"
        case .attribute: return "at"
        case .directive: return "di"
        }
    }

    private func renderTable(_ table: MarkdownTable, into html: inout String) {
        func cellTag(_ tag: String, _ column: Int) -> String {
            switch table.alignments[column] {
            case .none: return "<\(tag)>"
            case .left: return "<\(tag) class=\"left\">"
            case .center: return "<\(tag) class=\"center\">"
            case .right: return "<\(tag) class=\"right\">"
            }
        }
        html += "<table>\n<thead>\n<tr>\n"
        for (column, cell) in table.header.enumerated() {
            html += cellTag("th", column) + inlineHTML(cell) + "</th>\n"
        }
        html += "</tr>\n</thead>\n"
        if !table.rows.isEmpty {
            html += "<tbody>\n"
            for row in table.rows {
                html += "<tr>\n"
                for (column, cell) in row.enumerated() { html += cellTag("td", column) + inlineHTML(cell) + "</td>\n" }
                html += "</tr>\n"
            }
            html += "</tbody>\n"
        }
        html += "</table>\n"
    }

    func inlineHTML(_ inlines: [MarkdownInline]) -> String {
        var html = ""
        for inline in inlines {
            switch inline {
            case .text(let text):
                html += HTMLEscaping.escape(text)
            case .softBreak:
                html += "\n"
            case .lineBreak:
                html += "<br>\n"
            case .code(let code):
                html += "<code>" + HTMLEscaping.escape(code) + "</code>"
            case .html(let raw):
                html += "<code class=\"raw-html\">" + HTMLEscaping.escape(raw) + "</code>"
            case .emphasis(let children):
                html += "<em>" + inlineHTML(children) + "</em>"
            case .strong(let children):
                html += "<strong>" + inlineHTML(children) + "</strong>"
            case .link(let destination, let title, let children):
                guard let href = options.linkHref(destination) else {
                    html += inlineHTML(children)
                    continue
                }
                html += "<a href=\"" + HTMLEscaping.escapeURL(href) + "\""
                if !title.isEmpty { html += " title=\"" + HTMLEscaping.escape(title) + "\"" }
                html += ">" + inlineHTML(children) + "</a>"
            case .image(let source, let title, let children):
                let alt = HTMLEscaping.escape(children.plainText)
                let titleAttribute = title.isEmpty ? "" : " title=\"" + HTMLEscaping.escape(title) + "\""
                if let src = options.imageSource(source) {
                    html += "<img src=\"" + HTMLEscaping.escapeURL(src) + "\" alt=\"" + alt + "\"" + titleAttribute + ">"
                } else if let href = options.linkHref(source) {
                    // Handouts load nothing from the network: a remote image becomes a link to it.
                    html += "<a class=\"image-link\" href=\"" + HTMLEscaping.escapeURL(href) + "\"" + titleAttribute
                        + ">[image: " + alt + "]</a>"
                } else {
                    html += "[image: " + alt + "]"
                }
            }
        }
        return html
    }
}
