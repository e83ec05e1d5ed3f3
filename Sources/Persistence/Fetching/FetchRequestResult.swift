import Foundation

/// What a fetch can return (Core Data's `NSFetchRequestResult`): managed objects, object IDs, dictionaries and
/// counts. Nothing requires it here — ``FetchRequest`` takes any `Result` and checks it when it runs — but app code
/// that constrains its own protocols with it (`protocol Managed: NSManagedObject, NSFetchRequestResult`) compiles
/// as written.
///
/// It is also the untyped request's result type, Core Data's `NSFetchRequest<NSFetchRequestResult>`: what
/// ``ManagedObject/fetchRequest()`` returns, and the request ``BatchDeleteRequest/init(fetchRequest:)`` takes
/// (`FetchRequest<FetchRequestResult>(entityName: "Deck")`, or `Deck.fetchRequest()`), as Core Data's does.
public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension NSDictionary: FetchRequestResult {}
extension NSNumber: FetchRequestResult {}
