/// One section of a ``FetchedResultsController``'s results (Core Data's `NSFetchedResultsSectionInfo`): the
/// objects that share a value of the controller's ``FetchedResultsController/sectionNameKeyPath``, in the
/// request's order.
public protocol FetchedResultsSectionInfo: AnyObject {
    /// The section's name: the section key path's value as text (a number as `"3"`, a date as
    /// `"2001-01-01 00:00:00 +0000"`, a related object as its object ID's URI, `""` for nil); `""` for the one
    /// section of a controller without a section key path.
    var name: String { get }
    /// The section's title in a section index (see ``FetchedResultsController/sectionIndexTitle(forSectionName:)``);
    /// `nil` for the one section of a controller without a section key path.
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in order (`section.objects as? [Movie]` gives them typed).
    var objects: [Any]? { get }
}
