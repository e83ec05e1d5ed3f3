import Foundation

/// A plant as it arrives from outside — typed in, imported, received — before it becomes a managed object. The
/// name may be missing, which the model does not allow: saving such a plant fails.
public struct PlantDraft: Sendable, Equatable {
    public var name: String?
    public var wateredOn: Date?

    public init(name: String?, wateredOn: Date? = nil) {
        self.name = name
        self.wateredOn = wateredOn
    }
}
