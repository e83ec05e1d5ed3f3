/// Finds the `ManagedObject` subclass an entity's `representedClassName` names.
///
/// Xcode writes the name three ways: module-qualified (`Films.Movie`), relative to the app's own module
/// (`.Movie`, Xcode's "Current Product Module") or bare (`Movie`). A class is found, in this order, among the
/// classes registered explicitly (matched by full name, then by the name without its module), then by the Swift
/// runtime under the name as written and under each module hint (the module of the bundle the model came from).
/// The runtime finds only top-level classes; register nested or local ones.
struct ManagedObjectClassResolver {
    let registered: [ManagedObject.Type]
    let moduleHints: [String]
    /// Gives every entity plain `ManagedObject`s: for the other versions of a model, read only to migrate a store,
    /// whose entities the app's classes (written for the current version) need not fit.
    var plainObjectsOnly = false

    /// What a name resolved to.
    enum Resolution {
        case found(ManagedObject.Type)
        /// No class by that name: the entity's objects will be plain `ManagedObject`s.
        case notFound
        /// Something went wrong that the model's author must fix (the message says what).
        case invalid(String)
    }

    func resolve(_ representedClassName: String?) -> Resolution {
        if plainObjectsOnly { return .found(ManagedObject.self) }
        guard let written = representedClassName, !written.isEmpty,
              written != "NSManagedObject", written != "ManagedObject" else { return .found(ManagedObject.self) }
        let name = written.hasPrefix(".") ? String(written.dropFirst()) : written
        if let exact = registered.first(where: { String(reflecting: $0) == name }) { return .found(exact) }
        let simpleName = name.split(separator: ".").last.map(String.init) ?? name
        let bySimpleName = registered.filter { String(describing: $0) == simpleName }
        if bySimpleName.count > 1 {
            return .invalid("representedClassName '\(written)' matches several registered classes: \(bySimpleName.map { String(reflecting: $0) }.joined(separator: ", ")); write the class name with its module.")
        }
        if let only = bySimpleName.first { return .found(only) }
        let candidates = (written.hasPrefix(".") ? [] : [name]) + moduleHints.map { "\($0).\(name)" }
        // Only dotted Swift identifiers reach the runtime: it also reads mangled names, which a file must not feed it.
        for candidate in candidates where Self.isQualifiedIdentifier(candidate) {
            guard let type = _typeByName(candidate) else { continue }
            guard let managed = type as? ManagedObject.Type else {
                return .invalid("representedClassName '\(written)' names \(candidate), which is not a subclass of ManagedObject.")
            }
            return .found(managed)
        }
        return .notFound
    }

    /// `Films.Movie`, `Movie`: ASCII identifiers joined by dots.
    static func isQualifiedIdentifier(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
            return part.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) }
        }
    }
}
