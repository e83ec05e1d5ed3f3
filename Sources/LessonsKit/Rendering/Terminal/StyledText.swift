/// Terminal text as styled characters, with word wrapping that measures what a reader sees (not escape codes).
struct StyledText: Equatable {
    struct Cell: Equatable {
        var character: Character
        var style: TextStyle
    }

    var cells: [Cell] = []

    init() {}

    init(_ text: String, _ style: TextStyle = .plain) {
        append(text, style)
    }

    mutating func append(_ text: String, _ style: TextStyle = .plain) {
        cells.append(contentsOf: text.map { Cell(character: $0, style: style) })
    }

    mutating func append(_ other: StyledText) {
        cells.append(contentsOf: other.cells)
    }

    /// The same text without spaces at the end, so no output line carries trailing whitespace.
    func trimmingTrailingSpaces() -> StyledText {
        var copy = self
        while copy.cells.last?.character == " " { copy.cells.removeLast() }
        return copy
    }

    var width: Int { cells.reduce(0) { $0 + TextWidth.of($1.character) } }
    var isEmpty: Bool { cells.isEmpty }
    var plainText: String { String(cells.map(\.character)) }

    /// The text as a string: with escape codes when `colors` is on, and a reset at the end of each styled line.
    func rendered(colors: Bool) -> String {
        guard colors else { return plainText }
        var result = ""
        var current = TextStyle.plain
        for cell in cells {
            if cell.style != current {
                result += cell.style.escapeSequence
                current = cell.style
            }
            result.append(cell.character)
        }
        if current != .plain { result += "\u{1B}[0m" }
        return result
    }

    /// Splits at `\n`, then wraps each line at spaces so no line is wider than `width`; a word wider than
    /// `width` (a long URL) is cut. Spaces at the wrap points are dropped.
    func wrapped(width: Int) -> [StyledText] {
        let width = max(width, 8)
        var lines: [StyledText] = []
        for paragraph in split(separator: "\n") {
            var line = StyledText()
            var lineWidth = 0
            var pendingSpace: [Cell] = []
            for word in paragraph.words() {
                if word.cells.first?.character == " " {
                    pendingSpace = word.cells
                    continue
                }
                let spaceWidth = line.isEmpty ? 0 : pendingSpace.count
                let wordWidth = word.width
                if lineWidth + spaceWidth + wordWidth <= width {
                    if !line.isEmpty { line.cells.append(contentsOf: pendingSpace) }
                    line.append(word)
                    lineWidth += spaceWidth + wordWidth
                } else if wordWidth <= width {
                    if !line.isEmpty { lines.append(line) }
                    line = word
                    lineWidth = wordWidth
                } else {
                    // Too long for any line: fill the current line, then cut the rest into full lines.
                    var rest = word
                    if !line.isEmpty && lineWidth + spaceWidth < width {
                        line.cells.append(contentsOf: pendingSpace)
                        lineWidth += spaceWidth
                    } else if !line.isEmpty {
                        lines.append(line)
                        line = StyledText()
                        lineWidth = 0
                    }
                    while !rest.isEmpty {
                        let (head, tail) = rest.prefix(fitting: width - lineWidth)
                        line.append(head)
                        lineWidth += head.width
                        rest = tail
                        if !rest.isEmpty {
                            lines.append(line)
                            line = StyledText()
                            lineWidth = 0
                        }
                    }
                }
                pendingSpace = []
            }
            lines.append(line)
        }
        return lines
    }

    private func split(separator: Character) -> [StyledText] {
        var parts = [StyledText()]
        for cell in cells {
            if cell.character == separator { parts.append(StyledText()) } else { parts[parts.count - 1].cells.append(cell) }
        }
        return parts
    }

    /// Alternating runs of spaces and non-spaces.
    private func words() -> [StyledText] {
        var result: [StyledText] = []
        for cell in cells {
            let isSpace = cell.character == " "
            if let last = result.last?.cells.last, (last.character == " ") == isSpace {
                result[result.count - 1].cells.append(cell)
            } else {
                var word = StyledText()
                word.cells.append(cell)
                result.append(word)
            }
        }
        return result
    }

    private func prefix(fitting width: Int) -> (StyledText, StyledText) {
        var head = StyledText(), used = 0, index = 0
        while index < cells.count {
            let cellWidth = TextWidth.of(cells[index].character)
            if used + cellWidth > width && !head.isEmpty { break }
            head.cells.append(cells[index])
            used += cellWidth
            index += 1
        }
        var tail = StyledText()
        tail.cells = Array(cells[index...])
        return (head, tail)
    }
}
