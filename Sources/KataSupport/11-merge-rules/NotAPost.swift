import Persistence

/// An object ID that was expected to name a post names something else.
public struct NotAPost: Error, CustomStringConvertible {
    public let objectID: ManagedObjectID

    public init(_ objectID: ManagedObjectID) {
        self.objectID = objectID
    }

    public var description: String { "\(objectID) is not the ID of a Post" }
}
