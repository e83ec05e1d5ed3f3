import Foundation
import Persistence

/// A plant in a garden journal: the entity of lesson 2's `Garden` model (see ``GardenModel``).
public final class Plant: ManagedObject {
    @Managed public var name: String
    /// When it was last watered; nil until it is.
    @Managed public var wateredOn: Date?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Plant> {
        FetchRequest<Plant>(entityName: "Plant")
    }
}
