import Foundation

extension ManagedObject {
    /// A section name read from an object, or why none could be.
    enum SectionNameLookup: Equatable {
        case name(String)
        /// Core Data raises `NSUnknownKeyException` here; the words say which key, of what, could not be read.
        case unanswered(String)
    }

    /// The name of the section this object belongs to under a fetched results controller's section key path, read
    /// as Core Data reads it — the object's value for the key path, through to-one relationships and keys the class
    /// answers in ``value(forUndefinedKey:)`` — and written as Core Data writes it: the value's `description` — a
    /// string as it is, a number as `NSNumber` writes it (`3`, `2.5`, a Boolean as `1` or `0`), a date as
    /// `2001-01-01 00:00:00 +0000` — or, for a related object, its object ID's URI; `""` where the path meets nil
    /// (Apple documents nothing for it; Core Data puts such objects in a section named "").
    ///
    /// A key of the model is read from the object's storage; only a key the model lacks asks the class.
    func sectionName(forKeyPath keyPath: [String]) -> SectionNameLookup {
        var object: ManagedObject = self
        var position = 0
        while position < keyPath.count {
            let key = keyPath[position]
            let isLast = position == keyPath.count - 1
            position += 1
            guard let index = object.entity.propertyIndexByName[key] else {
                let answer = object.answer(forUndefinedKey: key)
                guard answer.answered else {
                    return .unanswered("the entity \(object.entity.entityName) has no property '\(key)', and its class \(type(of: object)) does not answer it in value(forUndefinedKey:)")
                }
                if isLast { return .name(Self.sectionName(ofAnswer: answer.value)) }
                switch answer.value {
                case let next as ManagedObject:
                    object = next
                    continue
                case nil, is NSNull:
                    return .name("")
                case let value?:
                    return .unanswered("\(type(of: object)) answers '\(key)' with a \(type(of: value)), which has no key '\(keyPath[position])': Persistence follows a section key path through objects only")
                }
            }
            if let relationship = object.entity.relationshipAt[index] {
                guard !relationship.isToMany else {
                    return .unanswered("\(object.entity.entityName).\(key) is a to-many relationship; a section key path goes through to-one relationships only")
                }
                guard let next = object.toOneObject(at: index) else { return .name("") }
                if isLast { return .name(next.objectID.uriRepresentation().absoluteString) }
                object = next
                continue
            }
            guard isLast else {
                return .unanswered("\(object.entity.entityName).\(key) is an attribute, whose value has no key '\(keyPath[position])': Persistence follows a section key path through objects only")
            }
            return .name(Self.sectionName(of: object.attributeValue(at: index)))
        }
        return .name("")
    }

    /// The section name of a value a class answered: as a stored value's where it is one, a related object's URI,
    /// otherwise its `description`.
    private static func sectionName(ofAnswer answer: Any?) -> String {
        switch answer {
        case let object as ManagedObject: return object.objectID.uriRepresentation().absoluteString
        case let text as String: return text
        default:
            if let value = PersistentValue(any: answer) { return sectionName(of: value) }
            return answer.map { String(describing: $0) } ?? ""
        }
    }

    private static func sectionName(of value: PersistentValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .double(let number):
            // NSNumber writes a whole double without a fractional part.
            if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .bool(let flag): return flag ? "1" : "0"
        case .date(let date): return date.description
        case .uuid(let uuid): return uuid.uuidString
        case .uri(let url): return url.absoluteString
        case .data(let data): return (data as NSData).description
        case .decimal(let decimal): return decimal.description
        }
    }
}
