import Persistence

/// A sighting: one species on one checklist, and how many birds the observer counted (see ``BirdLogModel``). A
/// checklist is one visit's list ("S-7"); the national survey database names a sighting by its checklist and species
/// together.
final class Observation: ManagedObject {
    /// The visit's checklist ("S-7").
    @Managed var checklist: String
    /// The species ("teal").
    @Managed var species: String
    /// How many birds were counted.
    @Managed var count: Int
    /// "pending" until a reviewer has looked at it, then "confirmed" or "corrected".
    @Managed var status: String
    /// Whether the upload worker has sent it to the national database.
    @Managed var uploaded: Bool
    /// Where it was counted; a sighting that came in from the database's export may have none yet.
    @Managed var site: SurveySite?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Observation> {
        FetchRequest<Observation>(entityName: "Observation")
    }
}
