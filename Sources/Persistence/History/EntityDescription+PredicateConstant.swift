import Foundation

/// An entity passed to a predicate (`changedEntity == %@`, as Apple's sessions filter history by entity) stands for
/// itself by name: a URI no attribute value takes, which the history planner turns into the entity's number in the
/// store. Any other fetch refuses it as a value of the wrong kind.
extension EntityDescription: PredicateConstantConvertible {
    private static let predicateScheme = "x-persistence-entity"

    var predicateConstant: PersistentValue {
        var components = URLComponents()
        components.scheme = Self.predicateScheme
        components.path = entityName
        return .uri(components.url!)
    }

    /// The entity name `constant` stands for, when it is an entity's ``predicateConstant``.
    static func entityName(inPredicateConstant constant: PersistentValue) -> String? {
        guard case .uri(let url) = constant, url.scheme == predicateScheme else { return nil }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.path
    }
}
