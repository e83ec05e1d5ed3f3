import Persistence

/// A table in the dining room, with the server who looks after it this shift.
final class DiningTable: ManagedObject {
    /// Its number on the floor plan.
    @Managed var number: Int
    /// Who serves it ("Ana"); it changes at the shift change.
    @Managed var server: String
    /// The dishes ordered for it.
    @Managed var tickets: Set<Ticket>
}
