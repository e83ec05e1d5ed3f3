internal import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place where C meets Swift for Markdown: parses text with cmark, copies the tree into
/// ``MarkdownBlock`` and ``MarkdownInline`` values and frees every cmark object before returning.
///
/// Nothing of cmark (pointers, enums, strings it owns) leaves this file.
enum CommonMarkConverter {
    /// The version of the cmark library linked at run time, e.g. `0.30.2`.
    static var libraryVersion: String {
        guard let version = cmark_version_string() else { return "unknown" }
        return String(cString: version)
    }

    /// Parses a whole document into blocks.
    static func blocks(from markdown: String) throws(LessonsError) -> [MarkdownBlock] {
        try withDocument(markdown) { root in convertBlocks(childrenOf: root) }
    }

    /// Parses a fragment that should be inline content (a table cell): the inlines of its first paragraph or
    /// heading; nil when cmark reads it as some other block (a list marker, a fence…).
    static func inlines(from markdown: String) throws(LessonsError) -> [MarkdownInline]? {
        try withDocument(markdown) { root -> [MarkdownInline]? in
            guard let first = cmark_node_first_child(root) else { return [] }
            guard cmark_node_next(first) == nil else { return nil }
            switch cmark_node_get_type(first) {
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING: return convertInlines(childrenOf: first)
            default: return nil
            }
        }
    }

    /// cmark's own HTML for `markdown` (safe mode: raw HTML and unsafe links left out). The handouts use
    /// ``HTMLRenderer``; this is the reference its link encoding is checked against.
    static func referenceHTML(_ markdown: String) -> String {
        let bytes = markdown.utf8CString
        let rendered = bytes.withUnsafeBufferPointer { text in
            cmark_markdown_to_html(text.baseAddress, bytes.count - 1, CMARK_OPT_VALIDATE_UTF8)
        }
        guard let rendered else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    private static func withDocument<T>(
        _ markdown: String, _ body: (OpaquePointer) -> T
    ) throws(LessonsError) -> T {
        // VALIDATE_UTF8 replaces invalid bytes instead of passing them through to the renderers.
        let options = CMARK_OPT_VALIDATE_UTF8
        let bytes = markdown.utf8CString
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { text in
            cmark_parse_document(text.baseAddress, bytes.count - 1, options)
        }
        guard let root = parsed else {
            throw LessonsError(.markdown, "cmark could not parse the text (out of memory)")
        }
        // Freeing the root frees the whole tree; everything returned has been copied into Swift values.
        defer { cmark_node_free(root) }
        return body(root)
    }

    private static func children(of node: OpaquePointer) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            result.append(current)
            child = cmark_node_next(current)
        }
        return result
    }

    private static func convertBlocks(childrenOf node: OpaquePointer) -> [MarkdownBlock] {
        children(of: node).flatMap(convertBlock)
    }

    private static func convertBlock(_ node: OpaquePointer) -> [MarkdownBlock] {
        let line = Int(cmark_node_get_start_line(node))
        switch cmark_node_get_type(node) {
        case CMARK_NODE_PARAGRAPH:
            return [MarkdownBlock(.paragraph(convertInlines(childrenOf: node)), line: line)]
        case CMARK_NODE_HEADING:
            let level = Int(cmark_node_get_heading_level(node))
            return [MarkdownBlock(.heading(level: level, convertInlines(childrenOf: node)), line: line)]
        case CMARK_NODE_BLOCK_QUOTE:
            return [MarkdownBlock(.blockQuote(convertBlocks(childrenOf: node)), line: line)]
        case CMARK_NODE_LIST:
            return [MarkdownBlock(.list(convertList(node)), line: line)]
        case CMARK_NODE_CODE_BLOCK:
            let info = string(cmark_node_get_fence_info(node))
            let code = string(cmark_node_get_literal(node))
            return [MarkdownBlock(.codeBlock(MarkdownCodeBlock(info: info, code: code)), line: line)]
        case CMARK_NODE_HTML_BLOCK:
            return [MarkdownBlock(.htmlBlock(string(cmark_node_get_literal(node))), line: line)]
        case CMARK_NODE_THEMATIC_BREAK:
            return [MarkdownBlock(.thematicBreak, line: line)]
        default:
            // Only the node API makes custom blocks; the parser never does. Keep their children, lose nothing.
            return convertBlocks(childrenOf: node)
        }
    }

    private static func convertList(_ node: OpaquePointer) -> MarkdownList {
        let style: MarkdownList.Style
        if cmark_node_get_list_type(node) == CMARK_ORDERED_LIST {
            let delimiter: Character = cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM ? ")" : "."
            style = .ordered(start: Int(cmark_node_get_list_start(node)), delimiter: delimiter)
        } else {
            style = .bullet
        }
        let items = children(of: node).map { convertBlocks(childrenOf: $0) }
        return MarkdownList(style: style, isTight: cmark_node_get_list_tight(node) != 0, items: items)
    }

    private static func convertInlines(childrenOf node: OpaquePointer) -> [MarkdownInline] {
        var result: [MarkdownInline] = []
        for child in children(of: node) {
            for inline in convertInline(child) {
                // cmark splits text at every special character; adjacent runs are one text to a reader.
                if case .text(let next) = inline, case .text(let previous)? = result.last {
                    result[result.count - 1] = .text(previous + next)
                } else {
                    result.append(inline)
                }
            }
        }
        return result
    }

    private static func convertInline(_ node: OpaquePointer) -> [MarkdownInline] {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT: return [.text(string(cmark_node_get_literal(node)))]
        case CMARK_NODE_SOFTBREAK: return [.softBreak]
        case CMARK_NODE_LINEBREAK: return [.lineBreak]
        case CMARK_NODE_CODE: return [.code(string(cmark_node_get_literal(node)))]
        case CMARK_NODE_HTML_INLINE: return [.html(string(cmark_node_get_literal(node)))]
        case CMARK_NODE_EMPH: return [.emphasis(convertInlines(childrenOf: node))]
        case CMARK_NODE_STRONG: return [.strong(convertInlines(childrenOf: node))]
        case CMARK_NODE_LINK:
            return [.link(destination: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)),
                          convertInlines(childrenOf: node))]
        case CMARK_NODE_IMAGE:
            return [.image(source: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)),
                           convertInlines(childrenOf: node))]
        default:
            // Custom inlines come only from the node API; keep whatever they contain.
            return convertInlines(childrenOf: node)
        }
    }

    /// Copies a string that cmark owns (it is freed with its node).
    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
