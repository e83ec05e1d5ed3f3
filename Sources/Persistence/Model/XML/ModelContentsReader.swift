import Foundation

/// Turns the XML of one Xcode model version (the `contents` file inside a `.xcdatamodel` folder) into entity
/// descriptions and configurations.
///
/// It reads what the code model can express — entities and their classes, attributes of every stored type
/// (optional, transient, default values), relationships (to-one, to-many, ordered, inverse, delete rule, counts),
/// uniqueness constraints, fetch indexes and the older compound indexes, entity inheritance and abstract entities,
/// configurations — and rejects, with an error naming the feature, the file, the line and the entity, what it
/// cannot yet represent faithfully (transient relationships, derived attributes, fetched properties). It never
/// loads such a model with a part silently missing.
struct ModelContentsReader {
    let file: URL
    let classes: ManagedObjectClassResolver

    struct Result {
        var entities: [EntityDescription] = []
        var configurations: [String: [String]] = [:]
        var warnings: [String] = []
        /// The `representedClassName`s no class was found for.
        var unresolvedClassNames: [String] = []
        /// The line of each entity (`"Movie"`) and property (`"Movie.title"`), for errors the model's checks find.
        var lines: [String: Int] = [:]
        /// Xcode's "Model Version Identifier" (`userDefinedModelVersionIdentifier`), if set.
        var versionIdentifier: String?
    }

    /// The document versions this reader knows (Xcode has written `1.0` since Xcode 4).
    static let knownDocumentVersions: Set<String> = ["1.0"]
    static let modelType = "com.apple.IDECoreDataModeler.DataModel"

    func read(_ root: ModelFileElement) throws -> Result {
        guard root.name == "model" else {
            throw invalid("the root element is <\(root.name)>, not <model>: this is not a Core Data model file.", line: root.line)
        }
        if let type = root["type"], type != Self.modelType {
            throw invalid("the model's type is '\(type)'; this reader knows '\(Self.modelType)'.", line: root.line)
        }
        if let version = root["documentVersion"], !Self.knownDocumentVersions.contains(version) {
            throw invalid("unknown model document version '\(version)'; this reader knows \(Self.knownDocumentVersions.sorted().joined(separator: ", ")). Save the model with a current Xcode or declare it in code.", line: root.line)
        }
        var result = Result()
        result.versionIdentifier = nonEmpty(root["userDefinedModelVersionIdentifier"])
        var declarations: [EntityDeclaration] = []
        for child in root.children {
            switch child.name {
            case "entity":
                declarations.append(try readEntity(child, into: &result))
            case "configuration":
                let name = try required("name", of: child, what: "configuration")
                guard result.configurations[name] == nil else {
                    throw invalid("two configurations are named '\(name)'.", line: child.line)
                }
                result.configurations[name] = try child.children.filter { $0.name == "memberEntity" }.map {
                    try required("name", of: $0, what: "memberEntity of configuration '\(name)'")
                }
            case "fetchRequest":
                // A stored fetch request changes nothing in the store or the objects; it is only not available.
                result.warnings.append("\(location(child.line)): the fetch request template '\(child["name"] ?? "?")' was skipped (templates are not supported; build the FetchRequest in code).")
            case "elements", "userInfo":
                continue  // The diagram's layout, and free-form notes.
            default:
                throw invalid("unknown element <\(child.name)> in <model>.", line: child.line)
            }
        }
        result.entities = try makeEntities(declarations, into: &result)
        return result
    }

    // MARK: - Entities

    /// One `<entity>` as read, before its parent is made.
    private struct EntityDeclaration {
        let name: String
        let parentName: String?
        let isAbstract: Bool
        let representedClassName: String?
        let line: Int
        let properties: [PropertyDescription]
        let constraints: [[String]]
        let indexes: [FetchIndexDescription]
        let versionHashModifier: String?
        let renamingIdentifier: String?
    }

    /// Makes the entities in the file's order, each parent before its subentities (a subentity takes the parent's
    /// properties when it is made). A missing parent or a cycle of parents is an error naming the entity.
    private func makeEntities(_ declarations: [EntityDeclaration], into result: inout Result) throws -> [EntityDescription] {
        let byName = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var made: [String: EntityDescription] = [:]
        var inProgress: Set<String> = []
        func make(_ declaration: EntityDeclaration) throws -> EntityDescription {
            if let entity = made[declaration.name] { return entity }
            let at = "entity '\(declaration.name)'"
            var parent: EntityDescription?
            if let parentName = declaration.parentName {
                guard let parentDeclaration = byName[parentName] else {
                    throw invalid("\(at) inherits from '\(parentName)' (parentEntity), which is not an entity of this model. Entities: \(byName.keys.sorted().joined(separator: ", ")).", line: declaration.line, entity: declaration.name)
                }
                guard inProgress.insert(declaration.name).inserted else {
                    throw invalid("\(at) inherits from itself through its parents (parentEntity '\(parentName)'); inheritance cannot go round in a circle.", line: declaration.line, entity: declaration.name)
                }
                parent = try make(parentDeclaration)
                inProgress.remove(declaration.name)
            }
            let entity = EntityDescription(name: declaration.name,
                                           managedObjectClass: try objectClass(of: declaration, parent: parent, into: &result),
                                           parent: parent, isAbstract: declaration.isAbstract,
                                           properties: declaration.properties, uniquenessConstraints: declaration.constraints,
                                           indexes: declaration.indexes, versionHashModifier: declaration.versionHashModifier,
                                           renamingIdentifier: declaration.renamingIdentifier)
            made[declaration.name] = entity
            return entity
        }
        return try declarations.map(make)
    }

    /// The class of an entity's objects: the `representedClassName`'s class, or when none is named or found, the
    /// parent's class or `ManagedObject`. The class found need not derive from the parent's (Core Data lets class
    /// and entity hierarchies differ).
    private func objectClass(of declaration: EntityDeclaration, parent: EntityDescription?,
                             into result: inout Result) throws -> ManagedObject.Type {
        let at = "entity '\(declaration.name)'"
        switch classes.resolve(declaration.representedClassName) {
        case .found(let type):
            // A subentity left as NSManagedObject makes objects of its parent's class, so that typed fetches of
            // the parent return them too. (Core Data would make plain NSManagedObjects; this library's choice.)
            return type == ManagedObject.self ? (parent?.managedObjectClass ?? type) : type
        case .notFound:
            let fallback = parent?.managedObjectClass ?? ManagedObject.self
            result.unresolvedClassNames.append(declaration.representedClassName ?? "")
            result.warnings.append("\(location(declaration.line)): no class named '\(declaration.representedClassName ?? "")' was found for \(at), so its objects are \(fallback == ManagedObject.self ? "plain ManagedObjects" : "\(fallback) objects, the class of its parent"). Pass the class in managedObjectClasses to use it.")
            return fallback
        case .invalid(let message):
            throw invalid("\(at): \(message)", line: declaration.line, entity: declaration.name)
        }
    }

    private func readEntity(_ element: ModelFileElement, into result: inout Result) throws -> EntityDeclaration {
        let name = try required("name", of: element, what: "entity")
        let at = "entity '\(name)'"
        if let parent = element["parentEntity"], parent == name {
            throw invalid("\(at) names itself as its parent (parentEntity).", line: element.line, entity: name)
        }
        result.lines[name] = element.line
        var properties: [PropertyDescription] = []
        var constraints: [[String]] = []
        var indexes: [FetchIndexDescription] = []
        for child in element.children {
            switch child.name {
            case "attribute":
                let attribute = try readAttribute(child, entity: name)
                result.lines["\(name).\(attribute.name)"] = child.line
                properties.append(attribute)
                // Xcode before 9 marked single-attribute indexes on the attribute itself.
                if child.flag("indexed") { indexes.append(FetchIndexDescription(name: "\(attribute.name)Index", properties: [attribute.name])) }
            case "relationship":
                let relationship = try readRelationship(child, entity: name, into: &result)
                result.lines["\(name).\(relationship.name)"] = child.line
                properties.append(relationship)
            case "fetchedProperty":
                throw invalid("\(at) has the fetched property '\(child["name"] ?? "?")'. Fetched properties are not supported yet; fetch with a FetchRequest instead.", line: child.line, entity: name, key: child["name"])
            case "uniquenessConstraints":
                for constraint in child.children where constraint.name == "uniquenessConstraint" {
                    constraints.append(try constraint.children.filter { $0.name == "constraint" }.map {
                        try required("value", of: $0, what: "constraint of \(at)", entity: name)
                    })
                }
            case "fetchIndex":
                indexes.append(try readFetchIndex(child, entity: name))
            case "compoundIndexes":
                for compound in child.children where compound.name == "compoundIndex" {
                    let keys = try compound.children.filter { $0.name == "index" }.map {
                        try required("value", of: $0, what: "compound index of \(at)", entity: name)
                    }
                    indexes.append(FetchIndexDescription(name: "compound" + keys.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(), properties: keys))
                }
            case "userInfo":
                continue
            default:
                throw invalid("unknown element <\(child.name)> in \(at).", line: child.line, entity: name)
            }
        }
        return EntityDeclaration(name: name, parentName: element["parentEntity"], isAbstract: element.flag("isAbstract"),
                                 representedClassName: element["representedClassName"], line: element.line,
                                 properties: properties, constraints: constraints, indexes: indexes,
                                 versionHashModifier: nonEmpty(element["versionHashModifier"]),
                                 renamingIdentifier: nonEmpty(element["elementID"]))
    }

    private func readFetchIndex(_ element: ModelFileElement, entity: String) throws -> FetchIndexDescription {
        let name = try required("name", of: element, what: "fetchIndex of entity '\(entity)'", entity: entity)
        let at = "fetch index '\(name)' of entity '\(entity)'"
        let elements = try element.children.filter { $0.name == "fetchIndexElement" }.map { item in
            guard let property = item["property"] else {
                throw invalid("\(at) indexes an expression; only indexes on properties are supported.", line: item.line, entity: entity)
            }
            if let type = item["type"], type != "Binary" {
                throw invalid("\(at) is of type '\(type)'; only Binary indexes are supported (SQLite's R-Tree indexes are not).", line: item.line, entity: entity, key: property)
            }
            switch item["order"] ?? "ascending" {
            case "ascending": return FetchIndexDescription.Element(property: property, ascending: true)
            case "descending": return FetchIndexDescription.Element(property: property, ascending: false)
            case let order: throw invalid("\(at) has the order '\(order)'; it must be ascending or descending.", line: item.line, entity: entity, key: property)
            }
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    // MARK: - Relationships

    private static let deleteRules: [String: DeleteRule] = [
        "Nullify": .nullifyDeleteRule, "Cascade": .cascadeDeleteRule, "Deny": .denyDeleteRule, "No Action": .noActionDeleteRule,
    ]

    private func readRelationship(_ element: ModelFileElement, entity: String,
                                  into result: inout Result) throws -> RelationshipDescription {
        let name = try required("name", of: element, what: "relationship of entity '\(entity)'", entity: entity)
        let at = "entity '\(entity)', relationship '\(name)'"
        func fail(_ message: String) -> PersistenceError {
            invalid("\(at): \(message)", line: element.line, entity: entity, key: name)
        }
        guard let destination = element["destinationEntity"], !destination.isEmpty else {
            throw fail("it has no destinationEntity. Choose the entity it points at.")
        }
        // Xcode keeps the inverse's entity beside its name, and a file can carry a stale one; Xcode's compiler finds
        // the inverse by name on the destination and the app runs (objc.io's Moody model), so this reader does too.
        if let inverseEntity = element["inverseEntity"], inverseEntity != destination {
            result.warnings.append("\(location(element.line)): relationship '\(entity).\(name)' gives inverseEntity '\(inverseEntity)' but points at '\(destination)'; its inverse '\(element["inverseName"] ?? "")' is read from '\(destination)', as Xcode compiles it. Choose the inverse again in Xcode's model editor to clear this.")
        }
        if element.flag("transient") {
            throw fail("it is transient. Transient relationships are not supported yet (transient attributes are); make it a stored relationship, or keep the related objects in a property of your class.")
        }
        let rule: DeleteRule
        if let written = element["deletionRule"] {
            guard let known = Self.deleteRules[written] else {
                throw fail("unknown deletionRule '\(written)'. Known rules: \(Self.deleteRules.keys.sorted().joined(separator: ", ")).")
            }
            rule = known
        } else {
            rule = .nullifyDeleteRule  // Core Data's default.
        }
        func count(_ attribute: String) throws -> Int {
            guard let text = element[attribute] else { return 0 }
            guard let value = Int(text), value >= 0 else { throw fail("\(attribute) '\(text)' is not a whole number of 0 or more.") }
            return value
        }
        let toMany = element.flag("toMany")
        // Xcode writes maxCount="1" (and minCount="1" when required) on every to-one; only a to-many's counts matter.
        let minCount = toMany ? try count("minCount") : 0
        let maxCount = toMany ? try count("maxCount") : 0
        if !toMany { _ = try count("minCount"); _ = try count("maxCount") }
        return RelationshipDescription(name: name, destination: destination, inverse: element["inverseName"],
                                       toMany: toMany, ordered: element.flag("ordered"), deleteRule: rule,
                                       isOptional: element.flag("optional"), minCount: minCount, maxCount: maxCount,
                                       versionHashModifier: nonEmpty(element["versionHashModifier"]),
                                       renamingIdentifier: nonEmpty(element["elementID"]))
    }

    // MARK: - Errors

    /// `Films.xcdatamodeld/Films.xcdatamodel/contents, line 12`.
    func location(_ line: Int) -> String { "\(file.path), line \(line)" }

    func invalid(_ message: String, line: Int, entity: String? = nil, key: String? = nil) -> PersistenceError {
        PersistenceError(.coreData, "Invalid model (\(location(line))): \(message)", entityName: entity, key: key, url: file)
    }

    func required(_ attribute: String, of element: ModelFileElement, what: String, entity: String? = nil) throws -> String {
        guard let value = element[attribute], !value.isEmpty else {
            throw invalid("a \(what) has no \(attribute).", line: element.line, entity: entity)
        }
        return value
    }
}
