import Foundation

#if !canImport(Darwin)
/// The name a ``ValueTransformer`` is registered under, as Foundation's `NSValueTransformerName` on Apple platforms.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name `rawValue`, as `NSValueTransformerName("…")` reads on Apple platforms.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Turns a value into another and, usually, back: what a `Transformable` attribute uses to store a value of a type
/// the store does not know, as `Data`.
///
/// Foundation has this class on Apple platforms but not on Linux; Persistence supplies the same API here, so code
/// that registers a transformer reads the same on both:
///
/// ```swift
/// final class TagsTransformer: ValueTransformer {
///     override class func allowsReverseTransformation() -> Bool { true }
///     override func transformedValue(_ value: Any?) -> Any? { … [String] to Data … }
///     override func reverseTransformedValue(_ value: Any?) -> Any? { … Data to [String] … }
/// }
/// ValueTransformer.setValueTransformer(TagsTransformer(), forName: NSValueTransformerName("TagsTransformer"))
/// ```
///
/// Subclasses must be safe to call from any queue: every context that reads or writes the attribute uses the one
/// registered instance.
open class ValueTransformer: @unchecked Sendable {
    /// A transformer; register it with `setValueTransformer(_:forName:)` before the attribute is used.
    public init() {}

    /// Whether ``reverseTransformedValue(_:)`` undoes ``transformedValue(_:)``; a `Transformable` attribute needs it.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The class of the value ``transformedValue(_:)`` gives (for an attribute's transformer, `NSData`). A subclass
    /// overrides it, as Foundation asks; Apple documents no default, and this one answers `NSObject`. Persistence
    /// itself never asks: it checks the value a transformer gives instead.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// The value in its transformed form (for an attribute: `Data`). The default returns `value` unchanged.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The value back from its transformed form. The default transforms again when reversing is allowed.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        type(of: self).allowsReverseTransformation() ? transformedValue(value) : nil
    }

    private static let registry = Registry()

    /// Registers `transformer` under `name`, or removes the one registered there when `transformer` is nil.
    public class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registry.set(transformer, for: name.rawValue)
    }

    /// The names of every registered transformer.
    public class func valueTransformerNames() -> [NSValueTransformerName] {
        registry.names.map(NSValueTransformerName.init(rawValue:))
    }

    /// The transformer registered under `name`; code spells it as Foundation does, ``ValueTransformerLookup/init(forName:)``.
    class func registered(forName name: NSValueTransformerName) -> ValueTransformer? {
        registry.transformer(for: name.rawValue)
    }

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        // Foundation registers its secure unarchiving transformer from the start; so does this registry.
        private var transformers: [String: ValueTransformer] = [
            NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue: NSSecureUnarchiveFromDataTransformer(),
        ]

        func set(_ transformer: ValueTransformer?, for name: String) {
            lock.withLock { transformers[name] = transformer }
        }

        func transformer(for name: String) -> ValueTransformer? {
            lock.withLock { transformers[name] }
        }

        var names: [String] { lock.withLock { transformers.keys.sorted() } }
    }
}

/// What gives ``ValueTransformer`` Foundation's `ValueTransformer(forName:)`: an initializer that answers the
/// registered instance, which a class's own initializer cannot do but one of a protocol extension (not bound to
/// classes) can. Machinery: nothing else conforms, and code never names it.
public protocol ValueTransformerLookup {}

extension ValueTransformer: ValueTransformerLookup {}

extension ValueTransformerLookup {
    /// The transformer registered under `name` (the very instance), or nil when none is — or, called on a
    /// subclass, when the registered one is not of that subclass. Foundation's spelling on Apple platforms.
    public init?(forName name: NSValueTransformerName) {
        guard let registered = ValueTransformer.registered(forName: name) as? Self else { return nil }
        self = registered
    }
}
#endif

/// The transformer registered under `name` (Foundation's registry on Apple platforms, ours elsewhere). An empty
/// name is a transformable attribute that names none: it gets Core Data's default, the transformer registered as
/// `NSSecureUnarchiveFromData`.
func registeredValueTransformer(named name: String) -> ValueTransformer? {
    let name = name.isEmpty ? NSValueTransformerName.secureUnarchiveFromDataTransformerName : NSValueTransformerName(name)
    #if canImport(Darwin)
    return ValueTransformer(forName: name)
    #else
    return ValueTransformer(forName: name)
    #endif
}
