import Persistence

/// One dish ordered for a table, as the kitchen's display above the pass shows it: in sections by station, the
/// earliest due first in each.
final class Ticket: ManagedObject {
    /// What to cook ("2× risotto").
    @Managed var dish: String
    /// The station that cooks it ("grill"): the display's sections.
    @Managed var station: String
    /// When it is due at the pass, in minutes after midnight (19:05 is 1145).
    @Managed var due: Int
    /// What the display says beside it: "waiting", "firing", "plated".
    @Managed var status: String
    /// The table it goes to; the display shows the table's server too.
    @Managed var table: DiningTable?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Ticket> {
        FetchRequest<Ticket>(entityName: "Ticket")
    }
}
