import Foundation

/// The `@Managed` properties of one `ManagedObject` subclass, by ordinal (see ``ManagedPropertyOrdinal``): their
/// names and declared kinds. Found once per class by reflecting a sample instance, then cached.
struct ManagedClassLayout: Sendable {
    struct Property: Sendable {
        let name: String
        let kind: ManagedValueKind
    }

    /// Indexed by ordinal.
    let properties: [Property]

    private static let cache = LayoutCache()

    /// The layout of `type`, or an error when its `@Managed` properties cannot be numbered reliably.
    static func of(_ type: ManagedObject.Type) throws -> ManagedClassLayout {
        if let layout = cache[ObjectIdentifier(type)] { return layout }
        let layout = try reflect(type)
        cache[ObjectIdentifier(type)] = layout
        return layout
    }

    private static func reflect(_ objectClass: ManagedObject.Type) throws -> ManagedClassLayout {
        let sample = objectClass.init(entity: EntityDescription(name: "LayoutSample", properties: []), insertInto: nil)
        var found: [(ordinal: UInt8, property: Property)] = []
        var mirror: Mirror? = Mirror(reflecting: sample)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_"), let wrapper = child.value as? AnyManagedProperty else { continue }
                found.append((wrapper.ordinal, Property(name: String(label.dropFirst()), kind: type(of: wrapper).valueKind)))
            }
            mirror = current.superclassMirror
        }
        // Ordinals are one byte each in every object (a fetch makes an object per row).
        guard found.count <= Int(UInt8.max) else {
            throw PersistenceError(.coreData, "Invalid model: \(objectClass) declares \(found.count) @Managed properties; at most \(UInt8.max) are supported. Reach the others with value(forKey:) and setValue(_:forKey:), which every property of the entity supports.")
        }
        let ordinals = found.map(\.ordinal).sorted()
        guard ordinals == Array(0..<UInt8(found.count)) else {
            throw PersistenceError(.coreData, "Invalid model: the @Managed properties of \(objectClass) could not be numbered in declaration order (ordinals \(ordinals)). Do not create managed objects inside the initial values of its stored properties.")
        }
        var properties = found
        properties.sort { $0.ordinal < $1.ordinal }
        return ManagedClassLayout(properties: properties.map(\.property))
    }
}

/// A lock-guarded table of layouts; filled once per class.
private final class LayoutCache: @unchecked Sendable {
    private let lock = NSLock()
    private var layouts: [ObjectIdentifier: ManagedClassLayout] = [:]

    subscript(type: ObjectIdentifier) -> ManagedClassLayout? {
        get { lock.withLock { layouts[type] } }
        set { lock.withLock { layouts[type] = newValue } }
    }
}
