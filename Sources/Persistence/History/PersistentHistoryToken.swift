import Foundation

/// A bookmark in a store's persistent history: the history up to and including one transaction (Core Data's
/// `NSPersistentHistoryToken`). Read on from it with `PersistentHistoryChangeRequest.fetchHistory(after:)`.
///
/// Keep the token of the last transaction you processed, and keep it between launches: a token held only in memory
/// makes the next launch read everything again, or miss what happened while the app was not running. Core Data
/// archives tokens with `NSKeyedArchiver`; here a token is both `NSSecureCoding` — so the same code works:
///
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
/// let token = try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: data)
/// ```
///
/// — and `Codable`, for `JSONEncoder` or a property list (`{"storeIdentifier": "…", "transactionNumber": 42}`).
/// Both encodings are stable: the store's identifier and the transaction's number, nothing else.
///
/// Tokens of one store compare by their transactions (``<(_:_:)``): a later transaction's token is greater.
/// Tokens of different stores are not ordered (neither is less than the other) and never equal.
public final class PersistentHistoryToken: NSObject, NSSecureCoding, Codable, Comparable, @unchecked Sendable {
    /// The identifier of the store whose history this is (its metadata UUID).
    let storeIdentifier: String
    /// The number of the transaction the token marks (see ``PersistentHistoryTransaction/transactionNumber``).
    let transactionNumber: Int64

    init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
        super.init()
    }

    // MARK: - Comparing

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

    /// `true` when both tokens are of one store and `lhs` marks an earlier transaction; tokens of different stores are
    /// not ordered.
    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        lhs.storeIdentifier == rhs.storeIdentifier && lhs.transactionNumber < rhs.transactionNumber
    }

    /// The store and the transaction, for debugging output.
    public override var description: String {
        "<PersistentHistoryToken transaction \(transactionNumber) of \(storeIdentifier)>"
    }

    // MARK: - Archiving

    /// `true`: a token decodes only as a token.
    public static var supportsSecureCoding: Bool { true }

    private enum CodingKeys: String, CodingKey {
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

    /// Encodes the store identifier and the transaction number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(transactionNumber, forKey: .transactionNumber)
    }

    /// A token decoded from what ``encode(to:)`` wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storeIdentifier = try container.decode(String.self, forKey: .storeIdentifier)
        transactionNumber = try container.decode(Int64.self, forKey: .transactionNumber)
        super.init()
    }
}
