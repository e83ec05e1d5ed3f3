import Foundation

extension ModelContentsReader {
    /// Xcode's names for the attribute types the store keeps.
    static let attributeTypes: [String: AttributeType] = [
        "String": .string, "Integer 16": .integer16, "Integer 32": .integer32, "Integer 64": .integer64,
        "Double": .double, "Float": .float, "Boolean": .boolean, "Date": .date, "UUID": .uuid, "URI": .uri,
        "Binary": .binaryData, "Decimal": .decimal, "Transformable": .transformable,
    ]

    /// Xcode's types that exist in Core Data but not here yet, with what to do instead.
    static let unsupportedAttributeTypes: [String: String] = [
        "ObjectID": "ObjectID attributes are not supported; keep the object's URI as a URI attribute",
        "Undefined": "Undefined attributes (transient ones holding any object) are not supported; give the transient attribute a concrete type, or make it Transformable",
        "Composite": "Composite attributes are not supported yet; flatten their elements into attributes",
    ]

    func readAttribute(_ element: ModelFileElement, entity: String) throws -> AttributeDescription {
        let name = try required("name", of: element, what: "attribute of entity '\(entity)'", entity: entity)
        let at = "entity '\(entity)', attribute '\(name)'"
        func fail(_ message: String) -> PersistenceError {
            invalid("\(at): \(message)", line: element.line, entity: entity, key: name)
        }
        guard let typeName = element["attributeType"] else { throw fail("it has no attributeType.") }
        if let reason = Self.unsupportedAttributeTypes[typeName] {
            throw fail("its type is \(typeName). \(reason).")
        }
        guard let type = Self.attributeTypes[typeName] else {
            throw fail("unknown attributeType '\(typeName)'. Known types: \(Self.attributeTypes.keys.sorted().joined(separator: ", ")).")
        }
        if element.flag("derived") {
            throw fail("it is derived (derivationExpression '\(element["derivationExpression"] ?? "")'). Derived attributes are not supported yet; compute the value in your class.")
        }
        for rule in ["minValueString", "maxValueString", "regularExpressionString"] where element[rule] != nil {
            throw fail("it has the validation rule \(rule)=\"\(element[rule] ?? "")\". Value validation rules (minimum, maximum, pattern) are not supported yet; check the value in your code before saving.")
        }
        // usesScalarValueType only changes the Swift type Xcode generates (Int32 or NSNumber); a class here
        // declares its own property types, so it does not change the attribute.
        // An empty Transformer field leaves the name nil: the attribute uses Core Data's default transformer, and
        // the model warns about it.
        var transformerName: String?
        if type == .transformable, let named = element["valueTransformerName"], !named.isEmpty {
            transformerName = named
        }
        let defaultValue = try self.defaultValue(of: element, type: type, fail: fail)
        return AttributeDescription(name: name, type: type, isOptional: element.flag("optional"), defaultValue: defaultValue,
                                    valueTransformerName: transformerName, isTransient: element.flag("transient"),
                                    versionHashModifier: nonEmpty(element["versionHashModifier"]),
                                    renamingIdentifier: nonEmpty(element["elementID"]),
                                    // Xcode's "Preserve After Deletion" checkbox.
                                    preservesValueInHistoryOnDeletion: element.flag("preserveAfterDeletion"))
    }

    /// `text`, or nil when it is missing or empty (Xcode writes empty fields as absent, but a hand-written file may not).
    func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// The attribute's default value: `defaultValueString` in the attribute's own notation, or for a date
    /// `defaultDateTimeInterval` (seconds since 2001-01-01, Core Data's reference date).
    private func defaultValue(of element: ModelFileElement, type: AttributeType,
                              fail: (String) -> PersistenceError) throws -> PersistentValue {
        if type == .date, let interval = element["defaultDateTimeInterval"] {
            guard let seconds = Double(interval), seconds.isFinite else { throw fail("defaultDateTimeInterval '\(interval)' is not a number of seconds.") }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        guard let text = element["defaultValueString"] else { return .null }
        let value: PersistentValue?
        switch type {
        case .string: value = .string(text)
        case .integer16, .integer32, .integer64: value = Int64(text).flatMap { type.coerce(.integer($0)) }
        case .double, .float: value = Double(text).map(PersistentValue.double)
        case .decimal: value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(PersistentValue.decimal)
        case .boolean:
            switch text {
            case "YES", "1", "true": value = .bool(true)
            case "NO", "0", "false": value = .bool(false)
            default: value = nil
            }
        case .uuid: value = UUID(uuidString: text).map(PersistentValue.uuid)
        case .uri: value = URL(string: text).map(PersistentValue.uri)
        case .date, .binaryData, .transformable, .undefined: value = nil
        }
        guard let value else {
            throw fail("its default value '\(text)' is not a valid \(element["attributeType"] ?? type.rawValue) value.")
        }
        return value
    }
}
