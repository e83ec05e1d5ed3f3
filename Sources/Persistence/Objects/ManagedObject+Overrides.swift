import Foundation
import Synchronization

/// Whether a class overrides ``ManagedObject/validateValue(_:forKey:)`` or ``ManagedObject/value(forUndefinedKey:)``.
///
/// `validateValue(_:forKey:)` is asked once per class, so that a save calls it for every property only for classes
/// that have rules of their own there (boxing each value of each object for a method that does nothing would cost a
/// quarter of an insert of many objects). `value(forUndefinedKey:)` tells a fetched results controller whether a
/// key the model lacks may be answered by the class at all, before any object is fetched.
///
/// Swift on Linux cannot ask whether a method is overridden, and no call can tell (an override that calls `super`
/// reaches the default implementation too). The answer is read from the classes' tables of methods: a method's
/// slot is the one where a probe class that overrides only that method differs from `ManagedObject` while a probe
/// that overrides nothing does not; a class overrides the method when its table differs from `ManagedObject`'s in
/// that slot. Wherever the tables cannot be read as expected, every class counts as overriding it: the method is
/// then always called, which is correct, only slower (or, for `value(forUndefinedKey:)`, checked later, per object).
enum ManagedObjectOverrides {
    private final class PlainProbe: ManagedObject {}

    private final class ValueProbe: ManagedObject {
        override func validateValue(_ value: inout Any?, forKey key: String) throws {}
    }

    private final class UndefinedKeyProbe: ManagedObject {
        override func value(forUndefinedKey key: String) -> Any? { nil }
    }

    /// The word offset, from a class's metadata, of the slot of `validateValue(_:forKey:)`; nil when not found.
    private static let validateValueSlot: Int? = findSlot(overriddenBy: ValueProbe.self)
    /// The same for `value(forUndefinedKey:)`.
    private static let undefinedKeySlot: Int? = findSlot(overriddenBy: UndefinedKeyProbe.self)
    private static let known = Mutex<[ObjectIdentifier: Bool]>([:])
    /// The last class asked about, its answer in the low bit (metadata is word-aligned): a save asks once per
    /// object, nearly always about the same class, and a lock each time would cost more than the answer.
    private static let last = Atomic<UInt>(0)

    /// `true` when `type` (or a superclass below `ManagedObject`) overrides `validateValue(_:forKey:)`.
    static func overridesValidateValue(_ type: ManagedObject.Type) -> Bool {
        if type == ManagedObject.self { return false }
        let bits = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        let remembered = last.load(ordering: .relaxed)
        if remembered & ~1 == bits { return remembered & 1 == 1 }
        let id = ObjectIdentifier(type)
        if let answer = known.withLock({ $0[id] }) {
            last.store(bits | (answer ? 1 : 0), ordering: .relaxed)
            return answer
        }
        let answer: Bool
        if let slot = validateValueSlot {
            answer = word(of: type, at: slot) != word(of: ManagedObject.self, at: slot)
        } else {
            answer = true
        }
        known.withLock { $0[id] = answer }
        last.store(bits | (answer ? 1 : 0), ordering: .relaxed)
        return answer
    }

    /// `true` when `type` (or a superclass below `ManagedObject`) overrides `value(forUndefinedKey:)`. Asked once
    /// per fetch, and for each object whose key path meets a key the model lacks: two loads, nothing remembered.
    static func overridesValueForUndefinedKey(_ type: ManagedObject.Type) -> Bool {
        if type == ManagedObject.self { return false }
        guard let slot = undefinedKeySlot else { return true }
        return word(of: type, at: slot) != word(of: ManagedObject.self, at: slot)
    }

    private static func word(of type: AnyClass, at slot: Int) -> UInt {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(fromByteOffset: slot * MemoryLayout<UInt>.size, as: UInt.self)
    }

    private static func findSlot(overriddenBy overriding: AnyClass) -> Int? {
        #if canImport(ObjectiveC) || !(arch(x86_64) || arch(arm64))
        // Class metadata with Objective-C interoperability, or of another word size, is laid out differently.
        return nil
        #else
        // Swift's class metadata without Objective-C interoperability: kind, superclass, then flags (4 bytes),
        // instance address point, instance size (4 each), alignment mask, reserved (2 each), class size, class
        // address point (4 each), description, ivar destroyer; the tables of methods and field offsets follow,
        // each class's after its superclass's, at the same offsets in every subclass.
        let base = unsafeBitCast(ManagedObject.self, to: UnsafeRawPointer.self)
        let classSize = Int(base.load(fromByteOffset: 32, as: UInt32.self))
        let addressPoint = Int(base.load(fromByteOffset: 36, as: UInt32.self))
        let end = (classSize - addressPoint) / MemoryLayout<UInt>.size
        let first = 56 / MemoryLayout<UInt>.size
        guard addressPoint >= 0, addressPoint < classSize, classSize <= 1 << 16, end > first else { return nil }
        for probe in [PlainProbe.self, overriding] as [AnyClass] {
            // Both are direct subclasses: their superclass field must be ManagedObject's metadata.
            guard word(of: probe, at: 1) == UInt(bitPattern: base) else { return nil }
        }
        var found: [Int] = []
        for slot in first..<end {
            let inherited = word(of: ManagedObject.self, at: slot)
            if word(of: PlainProbe.self, at: slot) == inherited, word(of: overriding, at: slot) != inherited {
                found.append(slot)
            }
        }
        return found.count == 1 ? found[0] : nil
        #endif
    }
}
