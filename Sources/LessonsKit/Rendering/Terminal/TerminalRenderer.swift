/// Renders a ``MarkdownDocument`` for a terminal: wrapped to a width, styled with ANSI codes when colours
/// are on, and readable as plain text when they are off (emphasis as `_x_`, strong as `**x**`, code in
/// backticks, links as "text (URL)").
public struct TerminalRenderer: Sendable {
    public struct Options: Sendable {
        /// Columns available to prose, which wraps to it.
        public var width: Int
        public var colors: Bool
        /// Columns available to code: a longer code line is soft-wrapped (its continuation indented and marked
        /// with `↪`, see ``TerminalRenderer/softWrap(_:width:)``). Nil keeps code lines whole, for output that
        /// is not a terminal.
        public var codeWidth: Int?
        /// How a `lesson:N` link is named for the reader, e.g. "lessons show 5".
        public var describeLessonLink: @Sendable (String) -> String

        public init(width: Int, colors: Bool, codeWidth: Int? = nil,
                    describeLessonLink: @escaping @Sendable (String) -> String = { "lessons show \($0)" }) {
            self.width = width
            self.colors = colors
            self.codeWidth = codeWidth
            self.describeLessonLink = describeLessonLink
        }
    }

    public var options: Options

    public init(options: Options) {
        self.options = options
    }

    /// The whole document as text, ending with a newline.
    public func render(_ document: MarkdownDocument) -> String {
        render(blocks: document.blocks)
    }

    /// Blocks as text, ending with a newline.
    public func render(blocks: [MarkdownBlock]) -> String {
        lines(for: blocks, width: options.width, listDepth: 0).map { $0.trimmingTrailingSpaces().rendered(colors: options.colors) }
            .joined(separator: "\n") + "\n"
    }

    /// Source code highlighted as Swift (for `lessons solution`), indented like a code block.
    public func renderCode(_ code: String, language: String?, origin: String? = nil) -> String {
        codeLines(MarkdownCodeBlock(info: language ?? "", code: code, origin: origin))
            .map { $0.rendered(colors: options.colors) }.joined(separator: "\n") + "\n"
    }

    // MARK: Blocks

    func lines(for blocks: [MarkdownBlock], width: Int, listDepth: Int, tight: Bool = false) -> [StyledText] {
        var result: [StyledText] = []
        for block in blocks {
            let rendered = lines(for: block, width: width, listDepth: listDepth, tight: tight)
            if rendered.isEmpty { continue }
            if !result.isEmpty && !tight { result.append(StyledText()) }
            result += rendered
        }
        return result
    }

    private func lines(for block: MarkdownBlock, width: Int, listDepth: Int, tight: Bool) -> [StyledText] {
        switch block.kind {
        case .paragraph(let inlines):
            return styled(inlines, base: .plain).wrapped(width: width)
        case .heading(let level, let inlines):
            return heading(level: level, inlines, width: width)
        case .blockQuote(let children):
            let bar = StyledText("│ ", TextStyle(dim: true, color: .blue))
            return lines(for: children, width: width - 2, listDepth: listDepth).map { line in
                // An empty quoted line keeps the bar but gets no trailing space.
                var prefixed = line.isEmpty ? StyledText("│", bar.cells[0].style) : bar
                prefixed.append(line)
                return prefixed
            }
        case .list(let list):
            return self.list(list, width: width, depth: listDepth)
        case .codeBlock(let code):
            return codeLines(code)
        case .htmlBlock(let html):
            // An HTML comment is an author's note (documented in lessons/README.md); other raw HTML is shown
            // as the author wrote it, never interpreted.
            if isComment(html) { return [] }
            return html.trimmingWhitespace.split(separator: "\n", omittingEmptySubsequences: false).map {
                StyledText("    " + $0, TextStyle(dim: true))
            }
        case .thematicBreak:
            return [StyledText(String(repeating: "─", count: min(width, 40)), TextStyle(dim: true))]
        case .table(let table):
            return self.table(table, width: width)
        }
    }

    private func heading(level: Int, _ inlines: [MarkdownInline], width: Int) -> [StyledText] {
        let style: TextStyle
        switch level {
        case 1: style = TextStyle(bold: true, color: .magenta)
        case 2: style = TextStyle(bold: true, color: .blue)
        default: style = TextStyle(bold: true)
        }
        var text = StyledText()
        // Without colours a level 3–6 heading would look like a paragraph: mark it the Markdown way.
        if level >= 3 && !options.colors { text.append(String(repeating: "#", count: level) + " ", style) }
        text.append(styled(inlines, base: style))
        var lines = text.wrapped(width: width)
        if level <= 2 {
            let rule = level == 1 ? "━" : "─"
            let ruleWidth = min(width, lines.map(\.width).max() ?? 0)
            lines.append(StyledText(String(repeating: rule, count: ruleWidth), TextStyle(dim: level == 2, color: style.color)))
        }
        return lines
    }

    private func list(_ list: MarkdownList, width: Int, depth: Int) -> [StyledText] {
        var result: [StyledText] = []
        let bullets = ["•", "◦", "▪"]
        for (index, item) in list.items.enumerated() {
            let marker: String
            switch list.style {
            case .bullet: marker = bullets[depth % bullets.count] + " "
            case .ordered(let start, let delimiter): marker = "\(start + index)\(delimiter) "
            }
            // Numbers line up on the widest marker so item texts start in one column.
            let markerWidth: Int
            if case .ordered(let start, _) = list.style {
                markerWidth = String(start + list.items.count - 1).count + 2
            } else {
                markerWidth = 2
            }
            let body = lines(for: item, width: width - markerWidth, listDepth: depth + 1, tight: list.isTight)
            if !result.isEmpty && !list.isTight { result.append(StyledText()) }
            let markerText = StyledText(marker.padding(toLength: markerWidth, withPad: " ", startingAt: 0),
                                        TextStyle(color: .yellow))
            if body.isEmpty { result.append(markerText) }
            for (lineIndex, line) in body.enumerated() {
                var prefixed = lineIndex == 0 ? markerText : StyledText(String(repeating: " ", count: markerWidth))
                if line.isEmpty && lineIndex > 0 { prefixed = StyledText() }
                prefixed.append(line)
                result.append(prefixed)
            }
        }
        return result
    }

    func codeLines(_ code: MarkdownCodeBlock) -> [StyledText] {
        var result: [StyledText] = []
        if let origin = code.origin {
            result.append(StyledText("    ┈┈ " + origin, TextStyle(dim: true)))
        }
        let source = code.code.hasSuffix("\n") ? String(code.code.dropLast()) : code.code
        let expanded = source.replacingTabs()
        let isSwift = code.language == "swift" || (code.language == nil && code.origin?.contains(".swift") == true)
        var line = StyledText("    ")
        if isSwift {
            for token in SwiftHighlighter.tokens(expanded) {
                let style = Self.style(for: token.kind)
                for part in token.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if part.offset > 0 {
                        result.append(line)
                        line = StyledText("    ")
                    }
                    line.append(String(part.element), style)
                }
            }
            result.append(line)
        } else {
            let style = TextStyle(color: .green)
            for text in expanded.split(separator: "\n", omittingEmptySubsequences: false) {
                result.append(StyledText("    " + text, style))
            }
        }
        return result.flatMap { line in
            // Keep blank code lines truly empty so no trailing spaces end up in the output.
            if line.plainText.trimmingWhitespace.isEmpty { return [StyledText()] }
            guard let codeWidth = options.codeWidth else { return [line] }
            return Self.softWrap(line, width: codeWidth)
        }
    }

    /// The continuation mark at the start of a soft-wrapped code line's next part.
    static let continuationMark = StyledText("↪ ", TextStyle(dim: true))

    /// A code line cut into parts no wider than `width`. Each continuation starts under the line's own
    /// indentation with `↪ `, so it reads as the same line and not as code of its own. A cut goes after the
    /// last space (else comma or opening bracket, else slash or dot) that leaves the part at least half
    /// full, else anywhere.
    static func softWrap(_ line: StyledText, width: Int) -> [StyledText] {
        guard line.width > width else { return [line] }
        let indentCount = line.cells.prefix { $0.character == " " }.count
        // Deeply indented code keeps at least half the width for text.
        let hanging = min(indentCount, width / 2)
        var prefix = StyledText(String(repeating: " ", count: hanging))
        prefix.append(continuationMark)
        var parts: [StyledText] = []
        var rest = line.cells[...]
        var isFirst = true
        while !rest.isEmpty {
            let lead = isFirst ? 0 : prefix.width
            let room = max(width - lead, 8)
            var used = 0, end = rest.startIndex
            while end < rest.endIndex {
                let cellWidth = TextWidth.of(rest[end].character)
                if used + cellWidth > room { break }
                used += cellWidth
                end += 1
            }
            if end < rest.endIndex {
                // Prefer a space, then a comma or an opening bracket, then a path's slash or a member's dot.
                let lowest = rest.startIndex + max((end - rest.startIndex) / 2, 1)
                for breakers in [" ", ",([{", "/."] {
                    if let cut = (lowest..<end).last(where: { breakers.contains(rest[$0 - 1].character) }) {
                        end = cut
                        break
                    }
                }
            } else {
                end = rest.endIndex
            }
            var part = isFirst ? StyledText() : prefix
            part.cells += rest[rest.startIndex..<end]
            parts.append(part.trimmingTrailingSpaces())
            rest = rest[end...]
            while rest.first?.character == " " { rest = rest.dropFirst() }
            isFirst = false
        }
        return parts
    }

    static func style(for kind: SwiftHighlighter.Token.Kind) -> TextStyle {
        switch kind {
        case .plain: return .plain
        case .keyword: return TextStyle(bold: true, color: .magenta)
        case .type: return TextStyle(color: .cyan)
        case .string: return TextStyle(color: .red)
        case .number: return TextStyle(color: .blue)
        case .comment: return TextStyle(dim: true, color: .green)
        case .attribute, .directive: return TextStyle(color: .yellow)
        }
    }

    private func isComment(_ html: String) -> Bool {
        let trimmed = html.trimmingWhitespace
        return trimmed.hasPrefix("<!--") && trimmed.hasSuffix("-->")
    }

    // MARK: Inlines

    func styled(_ inlines: [MarkdownInline], base: TextStyle) -> StyledText {
        var text = StyledText()
        let plain = !options.colors
        for inline in inlines {
            switch inline {
            case .text(let value):
                text.append(value, base)
            case .softBreak:
                text.append(" ", base)
            case .lineBreak:
                text.append("\n", base)
            case .code(let value):
                var style = base
                style.color = .cyan
                text.append(plain ? "`\(value)`" : value, style)
            case .html(let value):
                var style = base
                style.dim = true
                text.append(value, style)
            case .emphasis(let children):
                var style = base
                style.italic = true
                if plain { text.append("_", base) }
                text.append(styled(children, base: style))
                if plain { text.append("_", base) }
            case .strong(let children):
                var style = base
                style.bold = true
                if plain { text.append("**", base) }
                text.append(styled(children, base: style))
                if plain { text.append("**", base) }
            case .link(let destination, _, let children):
                var style = base
                style.underline = true
                style.color = .blue
                let label = styled(children, base: style)
                text.append(label)
                let shown = shownURL(destination)
                // In-page anchors mean nothing in a terminal; autolinks already show their URL.
                if !destination.hasPrefix("#") && label.plainText != shown && "mailto:" + label.plainText != destination {
                    var urlStyle = base
                    urlStyle.dim = true
                    text.append(" (\(shown))", urlStyle)
                }
            case .image(let source, _, let children):
                var style = base
                style.italic = true
                text.append("[image: \(children.plainText)]", style)
                var urlStyle = base
                urlStyle.dim = true
                text.append(" (\(source))", urlStyle)
            }
        }
        return text
    }

    private func shownURL(_ destination: String) -> String {
        switch LinkTarget(destination) {
        case .lesson(let name, _): return options.describeLessonLink(name)
        default: return destination
        }
    }
}
