import Foundation

extension ManagedObject {
    /// The name of the section this object belongs to under a fetched results controller's section key path, as
    /// Core Data makes it: the value's `description` — a string as it is, a number as `NSNumber` writes it (`3`,
    /// `2.5`, a Boolean as `1` or `0`), a date as `2001-01-01 00:00:00 +0000` — or, for a related object, its
    /// object ID's URI; `""` where the path meets nil (Core Data logs "Objects will be placed in unnamed section").
    func sectionName(forKeyPath keyPath: [String]) -> String {
        var object: ManagedObject = self
        for (position, key) in keyPath.enumerated() {
            guard let index = object.entity.propertyIndexByName[key] else { return "" }
            let isLast = position == keyPath.count - 1
            if let relationship = object.entity.relationshipAt[index] {
                guard !relationship.isToMany, let next = object.toOneObject(at: index) else { return "" }
                if isLast { return next.objectID.uriRepresentation().absoluteString }
                object = next
                continue
            }
            return isLast ? Self.sectionName(of: object.attributeValue(at: index)) : ""
        }
        return ""
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
