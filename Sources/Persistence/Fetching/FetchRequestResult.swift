import Foundation

/// What a fetch can return (Core Data's `NSFetchRequestResult`): managed objects, object IDs, dictionary rows and
/// counts — ``ManagedObject``, ``ManagedObjectID``, `NSDictionary` and `NSNumber` conform, as Core Data's four
/// classes adopt its protocol. A request's `Result` must conform: `FetchRequest<Movie>`,
/// `FetchRequest<ManagedObjectID>`, `FetchRequest<NSDictionary>` (`dictionaryResultType`) and
/// `FetchRequest<NSNumber>` (`countResultType`) compile; `FetchRequest<[String: Any]>`, `FetchRequest<Int>` and
/// `FetchRequest<String>` do not, in Xcode as here. App code that constrains its own protocols with it
/// (`protocol Managed: NSManagedObject, NSFetchRequestResult`) compiles as written.
///
/// It is also the untyped request's result type, Core Data's `NSFetchRequest<NSFetchRequestResult>`: what
/// ``ManagedObject/fetchRequest()`` returns, and the request ``BatchDeleteRequest/init(fetchRequest:)`` takes
/// (`FetchRequest<FetchRequestResult>(entityName: "Deck")`, or `Deck.fetchRequest()`), as Core Data's does.
///
/// **Where it differs.** It has no members and cannot be tested at run time (`value is FetchRequestResult` does not
/// compile here; it does on Apple's platforms, where the protocol is an Objective-C one).
// Core Data's protocol is an Objective-C one, whose existential satisfies its own constraint: that is what lets
// `NSFetchRequest<NSFetchRequestResult>` compile. A Swift protocol's existential does not, except a marker
// protocol's (as `any Sendable` is `Sendable`), so this one is a marker: the constraint is checked when code
// compiles and costs nothing when it runs. `@_marker` is the compiler's attribute for such protocols
// (`Sendable`, `Copyable`); were it to go, the fallback is an unconstrained `Result` checked when a fetch runs.
@_marker public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension NSDictionary: FetchRequestResult {}
extension NSNumber: FetchRequestResult {}

/// `Result` as messages name it. The untyped request's `any FetchRequestResult` is `Any` when the program runs (a
/// marker protocol leaves no trace), so it is named as the code writes it.
func resultTypeName<Result: FetchRequestResult>(_: Result.Type) -> String {
    ObjectIdentifier(Result.self) == ObjectIdentifier(Any.self) ? "FetchRequestResult" : String(describing: Result.self)
}
