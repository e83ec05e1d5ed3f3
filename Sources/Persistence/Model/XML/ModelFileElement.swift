import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a model file's XML, with its attributes, children and the line it starts on (for errors).
/// Parsed with Foundation's `XMLParser` into this small tree, which the model reader then walks.
struct ModelFileElement {
    let name: String
    let attributes: [String: String]
    let line: Int
    var children: [ModelFileElement] = []

    subscript(attribute: String) -> String? { attributes[attribute] }

    /// `true` when the attribute is Xcode's `YES` (Xcode writes only `YES`/`NO`; absent means `NO`).
    func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }

    /// The root element of the XML in `data`, or an error naming `file` and the line where parsing failed.
    static func parse(_ data: Data, file: URL) throws -> ModelFileElement {
        // Xcode writes model files in UTF-8, and FoundationXML's parser traps on names that are not valid UTF-8,
        // so the bytes are checked first.
        if let offset = invalidUTF8Offset(in: data) {
            let line = data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            throw PersistenceError(.fileReadCorruptFile,
                                   "The model file \(file.path) is not valid UTF-8 (line \(line), byte \(offset)); Xcode writes model files in UTF-8.",
                                   url: file)
        }
        let parser = XMLParser(data: data)
        // A model file never needs outside entities; not resolving them keeps a hostile file from reaching out.
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        let parsed = parser.parse()
        // On Linux `parse()` can return true after an error, so the delegate's record is what counts.
        guard parsed, builder.failure == nil, let root = builder.root else {
            let reason = builder.failure ?? builder.unclosed.map { "the file ends before <\($0.name)> opened on line \($0.line) is closed" }
                ?? "the file has no root element"
            throw PersistenceError(.fileReadCorruptFile,
                                   "The model file \(file.path) is not well-formed XML (line \(parser.lineNumber), column \(parser.columnNumber)): \(reason).",
                                   url: file)
        }
        return root
    }

    /// The offset of the first byte that is not part of valid UTF-8, or nil when all of `data` is valid.
    static func invalidUTF8Offset(in data: Data) -> Int? {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Builds the tree from the parser's callbacks.
    private final class Builder: NSObject, XMLParserDelegate {
        private var stack: [ModelFileElement] = []
        private(set) var root: ModelFileElement?
        private(set) var failure: String?
        /// The innermost element still open.
        var unclosed: ModelFileElement? { stack.last }

        /// Xcode nests model files five levels deep at most; a far deeper file is not a model, and the tree's
        /// recursive teardown must not run out of stack.
        static let maximumDepth = 64

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            guard failure == nil else { return }
            guard stack.count < Self.maximumDepth else {
                failure = "elements are nested more than \(Self.maximumDepth) levels deep, far deeper than any model"
                parser.abortParsing()
                return
            }
            stack.append(ModelFileElement(name: elementName, attributes: attributes, line: parser.lineNumber))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard failure == nil, let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard failure == nil else { return }
            let code = (parseError as NSError).code
            var reason = Self.reasons[code] ?? "XML parser error \(code)"
            if let open = stack.last { reason += "; <\(open.name)> opened on line \(open.line) is still open" }
            failure = reason
        }

        /// Words for the commonest errors. The codes are libxml2's, which `XMLParser` passes on (its own
        /// descriptions are bare numbers on Linux).
        private static let reasons: [Int: String] = [
            4: "the file is empty or is not XML",
            5: "the XML does not end properly (it stops early, or has content after the root element)",
            9: "the file holds a character XML does not allow",
            39: "an attribute's value is not in quotes",
            41: "an attribute has no value",
            73: "expected '>'",
            76: "a closing tag does not match the element it closes",
            77: "a tag is not finished",
        ]
    }
}
