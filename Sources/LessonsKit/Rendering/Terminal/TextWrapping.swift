import Foundation

/// Word wrapping for lines that are already finished text (escape codes included), such as `lessons list`'s
/// rows and the commands' one-line summaries.
public enum TextWrapping {
    /// Wraps each line of `text` at spaces so no line is wider than `width` columns; continuation lines are
    /// indented by `hangingIndent(line)` spaces (at most half the width). Escape codes take no room, and a
    /// word longer than a whole line is cut. A no-break space (U+00A0) joins words that belong on one line
    /// (a command to type); it is printed as a plain space.
    public static func wrap(_ text: String, width: Int, hangingIndent: (String) -> Int = { _ in 0 }) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            wrapLine(String(line), width: max(width, 8), indent: hangingIndent(String(line)))
                .replacingOccurrences(of: noBreakSpace, with: " ")
        }.joined(separator: "\n")
    }

    /// The no-break space, for ``wrap(_:width:hangingIndent:)``.
    public static let noBreakSpace = "\u{00A0}"

    /// `text` with the spaces of each `swift run lessons …` command (the command and one argument) made
    /// no-break, so a command is never split across lines.
    public static func keepingCommandsTogether(_ text: String) -> String {
        text.replacing(/swift run lessons [\w-]+(?: [\w-]+)?/) { match in
            match.output.replacingOccurrences(of: " ", with: noBreakSpace)
        }
    }

    /// `items` joined with `separator`, starting a new line before an item that would not fit; an item
    /// wider than `width` is word-wrapped on its own lines.
    public static func join(_ items: [String], separator: String = " · ", width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for item in items {
            if current.isEmpty {
                current = item
            } else if visibleWidth(current + separator + item) <= width {
                current += separator + item
            } else {
                lines.append(current)
                current = item
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.flatMap { wrapLine($0, width: max(width, 8), indent: 0).split(separator: "\n").map(String.init) }
    }

    /// Columns `text` takes on a terminal: escape sequences take none, wide characters two.
    public static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += TextWidth.of(character)
            }
        }
        return width
    }

    private static func wrapLine(_ line: String, width: Int, indent: Int) -> String {
        guard visibleWidth(line) > width else { return line }
        let indent = min(max(indent, 0), width / 2)
        let padding = String(repeating: " ", count: indent)
        // Leading spaces belong to the first word, so a row's own indentation stays.
        var words: [String] = []
        var word = ""
        for character in line {
            if character == " " && !word.trimmingWhitespace.isEmpty {
                words.append(word)
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }

        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in words {
            let wordWidth = visibleWidth(word)
            if current.isEmpty || currentWidth + 1 + wordWidth <= width {
                if !current.isEmpty {
                    current += " "
                    currentWidth += 1
                }
                current += word
                currentWidth += wordWidth
            } else {
                lines.append(current)
                let trimmed = String(word.drop { $0 == " " })
                current = padding + trimmed
                currentWidth = indent + visibleWidth(trimmed)
            }
            // A word too long for any line (a path): cut it into pieces that fill the lines, after a slash
            // when there is one in the second half.
            while currentWidth > width {
                var (head, tail) = split(current, atColumn: width)
                if let slash = head.lastIndex(of: "/"), head.index(after: slash) < head.endIndex,
                   visibleWidth(String(head[...slash])) >= width / 2 {
                    tail = String(head[head.index(after: slash)...]) + tail
                    head = String(head[...slash])
                }
                lines.append(head)
                current = padding + tail
                currentWidth = indent + visibleWidth(tail)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }

    /// The part of `text` that fills `column` columns, and the rest (escape codes go with the head).
    private static func split(_ text: String, atColumn column: Int) -> (String, String) {
        var head = "", width = 0, inEscape = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inEscape {
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                let characterWidth = TextWidth.of(character)
                if width + characterWidth > column && width > 0 { break }
                width += characterWidth
            }
            head.append(character)
            index = text.index(after: index)
        }
        return (head, String(text[index...]))
    }
}
