/// Turns a Swift key path of a managed object class (`\Movie.director?.name`) into the model's key path
/// (`director.name`).
///
/// `@Managed` properties are computed, and a computed key path does not carry a property name. So the key path is
/// replayed on a sample object that records each `@Managed` property read (its name comes from the class's
/// layout); a to-one read hands back a recording sample of the destination class, so chains work.
final class KeyPathRecorder {
    private(set) var keys: [String] = []
    private var failed = false
    private let placeholderEntity = EntityDescription(name: "KeyPathRecorder", properties: [])

    /// The model key path `keyPath` reads, or `nil` when it reads no `@Managed` property.
    static func keys<Root: ManagedObject>(of keyPath: PartialKeyPath<Root>) -> [String]? {
        let recorder = KeyPathRecorder()
        let sample = Root(entity: recorder.placeholderEntity, insertInto: nil)
        sample.keyPathRecorder = recorder
        _ = sample[keyPath: keyPath]
        return recorder.keys.isEmpty || recorder.failed ? nil : recorder.keys
    }

    /// Records a read of `object`'s `@Managed` property `ordinal` and returns what the read should give back: a
    /// recording sample for a to-one, nothing otherwise.
    func record(_ object: ManagedObject, ordinal: UInt8, kind: ManagedValueKind) -> ManagedStorage {
        guard let layout = try? ManagedClassLayout.of(type(of: object)), Int(ordinal) < layout.properties.count else {
            failed = true
            return .value(.null)
        }
        keys.append(layout.properties[Int(ordinal)].name)
        guard case .toOne(let type) = kind else { return .value(.null) }
        let next = type.init(entity: placeholderEntity, insertInto: nil)
        next.keyPathRecorder = self
        return .objects([next])
    }
}
