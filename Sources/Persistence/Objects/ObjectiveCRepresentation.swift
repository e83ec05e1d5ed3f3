import Foundation

/// Whether Core Data's `@NSManaged` could declare a property of a type. On Apple platforms a managed property's
/// type must be representable in Objective-C, or the declaration does not compile; the generic `@Managed` compiles
/// any array or dictionary, so the model check asks this instead and refuses the rest by name (`[Swatch]` of a Swift
/// structure, `[String?]`). Asked once per class when the model is made, never on an accessor's path.
enum ObjectiveCRepresentation {
    /// Classes that inherit from `NSObject`, the Swift values Foundation bridges to an Objective-C class, and arrays,
    /// sets and dictionaries of those (Optional elements are not: Objective-C collections cannot hold nil).
    static func represents(_ type: Any.Type) -> Bool {
        if type is NSObject.Type || bridgedValues.contains(ObjectIdentifier(type)) { return true }
        guard let collection = type as? any BridgedCollection.Type else { return false }
        return collection.elementTypes.allSatisfy(represents)
    }

    /// What Foundation bridges to `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`, `NSUUID`, `NSDecimalNumber`.
    private static let bridgedValues: Set<ObjectIdentifier> = Set([
        String.self, Bool.self, Double.self, Float.self, Decimal.self, Date.self, Data.self, URL.self, UUID.self,
        Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self,
        UInt64.self,
    ].map { ObjectIdentifier($0) })
}

/// A Swift collection Foundation bridges to an Objective-C one when its elements bridge.
protocol BridgedCollection {
    /// The types that must be representable for the collection to be: elements, or keys and values.
    static var elementTypes: [Any.Type] { get }
}

extension Array: BridgedCollection {
    static var elementTypes: [Any.Type] { [Element.self] }
}

extension Set: BridgedCollection {
    static var elementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: BridgedCollection {
    static var elementTypes: [Any.Type] { [Key.self, Value.self] }
}
