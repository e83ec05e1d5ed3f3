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

    /// Builds the tree from the parser's callbacks.
    private final class Builder: NSObject, XMLParserDelegate {
        private var stack: [ModelFileElement] = []
        private(set) var root: ModelFileElement?
        private(set) var failure: String?
        /// The innermost element still open.
        var unclosed: ModelFileElement? { stack.last }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(ModelFileElement(name: elementName, attributes: attributes, line: parser.lineNumber))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = stack.popLast() else { return }
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
