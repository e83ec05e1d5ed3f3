/// A property is one object of its model, so two descriptions are equal when they describe the same attribute or
/// relationship (the same instance), as Core Data's `NSPropertyDescription`s compare. This lets a history change
/// list its ``PersistentHistoryChange/updatedProperties`` as a set, as Core Data does.
extension PropertyDescription: Hashable {
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool {
        switch (lhs, rhs) {
        case (.attribute(let a), .attribute(let b)): return a === b
        case (.relationship(let a), .relationship(let b)): return a === b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .attribute(let a): hasher.combine(ObjectIdentifier(a))
        case .relationship(let r): hasher.combine(ObjectIdentifier(r))
        }
    }
}
