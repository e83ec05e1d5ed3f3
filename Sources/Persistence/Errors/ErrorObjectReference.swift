/// Lets a `Sendable` error hold the object it concerns, as Core Data's errors hold theirs in `userInfo`.
///
/// The error may travel to any thread; the object may still be used only on its context's queue (what Core Data
/// asks of the object in its errors too). The reference is strong, like `NSError`'s, so the object outlives the
/// error's reader even after its context let it go.
final class ErrorObjectReference: @unchecked Sendable {
    let object: ManagedObject

    init(_ object: ManagedObject) {
        self.object = object
    }
}
