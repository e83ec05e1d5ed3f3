import Foundation

/// Transformable attributes that name no transformer: Core Data loads them with its default transformer and logs a
/// warning for each ("CoreData: warning: Property '…' on Entity '…' is using nil or an insecure
/// NSValueTransformer…"); so does this library, in its own words.
extension ManagedObjectModel {
    /// One warning per transformable attribute of `entities` that names no transformer (each where it is declared,
    /// not again in the subentities that inherit it).
    static func defaultTransformerWarnings(for entities: [EntityDescription]) -> [String] {
        var warnings: [String] = []
        for entity in entities {
            for attribute in entity.properties.dropFirst(entity.inheritedPropertyCount).compactMap(\.asAttribute)
            where attribute.attributeType == .transformable && (attribute.valueTransformerName ?? "").isEmpty {
                warnings.append("Transformable attribute '\(entity.entityName).\(attribute.name)' names no value transformer, so it uses the default, \(NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue), as Core Data does: it stores only values of \(SecureArchive.names(of: SecureArchive.defaultAllowedClasses)) (Swift's String, numbers, Date, Data, URL, UUID, arrays, dictionaries and sets of them included). Name a ValueTransformer in valueTransformerName to store anything else.")
            }
        }
        return warnings
    }

    /// Prints each of `warnings` to standard error the first time this process meets it: a model loaded again (by
    /// every test, say) does not repeat them.
    static func printOnce(_ warnings: [String]) {
        for warning in warnings where printedWarnings.firstTime(warning) {
            FileHandle.standardError.write(Data("Persistence: warning: \(warning)\n".utf8))
        }
    }

    private static let printedWarnings = SeenWarnings()
}

/// The warnings already printed, under a lock (models are made on any queue).
private final class SeenWarnings: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<String> = []

    /// `true` the first time `warning` is asked about.
    func firstTime(_ warning: String) -> Bool {
        lock.withLock { seen.insert(warning).inserted }
    }
}
