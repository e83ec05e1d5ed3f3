import Foundation

/// A bookmark in a store's persistent history: the history up to and including one transaction (Core Data's
/// `NSPersistentHistoryToken`). Read on from it with `PersistentHistoryChangeRequest.fetchHistory(after:)`.
///
/// Keep the token of the last transaction you processed, and keep it between launches: a token held only in memory
/// makes the next launch read everything again, or miss what happened while the app was not running. As in Core
/// Data, a token is `NSSecureCoding` and is archived with Foundation's keyed archiver:
///
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
/// let token = try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: data)
/// ```
///
/// The archive holds the store's identifier and the transaction's number, nothing else; it is Persistence's own and
/// means nothing to Core Data (nor Core Data's to Persistence).
///
/// As Core Data's, tokens are equal when they mark the same transaction of the same store, and are neither ordered
/// (`Comparable`) nor `Codable`: to find the oldest of several, look for them in the history, which lists its
/// transactions oldest first.
public final class PersistentHistoryToken: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The identifier of the store whose history this is (its metadata UUID).
    let storeIdentifier: String
    /// The number of the transaction the token marks (see ``PersistentHistoryTransaction/transactionNumber``).
    let transactionNumber: Int64

    init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
        super.init()
    }

    // MARK: - Equality

    /// Whether both tokens mark the same transaction of the same store.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PersistentHistoryToken else { return false }
        return storeIdentifier == other.storeIdentifier && transactionNumber == other.transactionNumber
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(storeIdentifier)
        hasher.combine(transactionNumber)
        return hasher.finalize()
    }

    /// The store and the transaction, for debugging output.
    public override var description: String {
        "<PersistentHistoryToken transaction \(transactionNumber) of \(storeIdentifier)>"
    }

    // MARK: - Archiving

    /// `true`: a token decodes only as a token.
    public static var supportsSecureCoding: Bool { true }

    /// The keys of the archive.
    private enum CodingKeys: String {
        case storeIdentifier
        case transactionNumber
    }

    /// Archives the store identifier and the transaction number.
    public func encode(with coder: NSCoder) {
        coder.encode(storeIdentifier as NSString, forKey: CodingKeys.storeIdentifier.rawValue)
        coder.encode(transactionNumber, forKey: CodingKeys.transactionNumber.rawValue)
    }

    /// A token from a keyed archive made by ``encode(with:)``; `nil` when the archive holds no store identifier.
    public init?(coder: NSCoder) {
        guard let store = coder.decodeObject(of: NSString.self, forKey: CodingKeys.storeIdentifier.rawValue) else { return nil }
        storeIdentifier = store as String
        transactionNumber = coder.decodeInt64(forKey: CodingKeys.transactionNumber.rawValue)
        super.init()
    }
}

/// A token passed to a predicate on the transaction entity (`token > %@`) stands for its transaction's number, as
/// the transaction entity's `token` key does.
extension PersistentHistoryToken: PredicateConstantConvertible {
    var predicateConstant: PersistentValue { .integer(transactionNumber) }
}
