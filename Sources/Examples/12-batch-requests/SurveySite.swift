import Persistence

/// A place the survey counts birds at ("Marsh hide"): one of the two entities of the example's model (see
/// ``BirdLogModel``). Closing a site deletes its sightings (cascade).
final class SurveySite: ManagedObject {
    @Managed var name: String
    @Managed var sightings: Set<Observation>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<SurveySite> {
        FetchRequest<SurveySite>(entityName: "SurveySite")
    }
}
