import Foundation

/// The metadata a store keeps in its `Z_METADATA` table, as Core Data's dictionary (`NSStoreType`, `NSStoreUUID`,
/// `NSStoreModelVersionHashes`, … and the app's own keys).
///
/// The table holds key–value rows: `uuid`, `modelHash` (the model's fingerprint, all that stores written before
/// per-entity hashes keep), `formatVersion`, and `metadata`, a binary property list of the whole dictionary.
enum StoreMetadata {
    /// The key under which the dictionary of a store written before per-entity hashes gives its model fingerprint
    /// (``ManagedObjectModel/versionHash``).
    static let legacyModelHashKey = "PersistenceModelVersionHash"
    /// Core Data's version of its hashing scheme, which it writes under `NSStoreModelVersionHashesVersion`.
    static let hashesVersion = 3
    static let formatVersion = "1"

    /// The entity version hashes the dictionary holds, if any.
    static func entityHashes(in metadata: [String: Any]) -> [String: Data]? {
        if let hashes = metadata[CoreDataStoreName.modelVersionHashes] as? [String: Data] { return hashes }
        // A dictionary that went through Foundation's bridging may hold NSData values.
        guard let any = metadata[CoreDataStoreName.modelVersionHashes] as? [String: Any] else { return nil }
        var hashes: [String: Data] = [:]
        for (name, value) in any {
            guard let data = value as? Data else { return nil }
            hashes[name] = data
        }
        return hashes
    }

    /// The dictionary a store of `model` keeps, with `custom` keys of the app's (the store's own keys win over
    /// custom ones of the same name, except a UUID the app set, as Core Data does).
    static func dictionary(uuid: String, hashes: [String: Data], identifiers: [Any], checksum: String,
                           custom: [String: Any] = [:]) -> [String: Any] {
        var metadata = custom
        metadata[CoreDataStoreName.storeType] = CoreDataStoreName.sqliteStoreType
        if metadata[CoreDataStoreName.storeUUID] == nil { metadata[CoreDataStoreName.storeUUID] = uuid }
        metadata[CoreDataStoreName.modelVersionHashes] = hashes
        metadata[CoreDataStoreName.modelVersionIdentifiers] = identifiers
        metadata[CoreDataStoreName.modelVersionHashesVersion] = hashesVersion
        metadata[CoreDataStoreName.modelVersionChecksum] = checksum
        metadata.removeValue(forKey: legacyModelHashKey)
        return metadata
    }

    /// The keys the store sets itself; everything else in a dictionary is the app's.
    static let storeKeys: Set<String> = [
        CoreDataStoreName.storeType, CoreDataStoreName.modelVersionHashes, CoreDataStoreName.modelVersionIdentifiers,
        CoreDataStoreName.modelVersionHashesVersion, CoreDataStoreName.modelVersionChecksum, legacyModelHashKey,
    ]

    /// Reads the dictionary from an open store.
    static func read(from connection: SQLiteConnection) throws -> [String: Any] {
        var rows: [String: SQLiteValue] = [:]
        for row in try connection.query("SELECT Z_KEY, Z_VALUE FROM Z_METADATA") {
            if case .text(let key) = row[0] { rows[key] = row[1] }
        }
        var metadata: [String: Any] = [:]
        if case .blob(let data)? = rows["metadata"],
           let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] {
            metadata = plist
        } else if case .text(let hash)? = rows["modelHash"] {
            metadata[legacyModelHashKey] = hash
        }
        metadata[CoreDataStoreName.storeType] = CoreDataStoreName.sqliteStoreType
        if case .text(let uuid)? = rows["uuid"] { metadata[CoreDataStoreName.storeUUID] = uuid }
        return metadata
    }

    /// Writes `metadata` (which must be property-list values) into an open store, with `fingerprint` as the
    /// model's ``ManagedObjectModel/versionHash``; inside the caller's transaction.
    static func write(_ metadata: [String: Any], fingerprint: String, to connection: SQLiteConnection) throws {
        let data = try encode(metadata)
        let uuid = metadata[CoreDataStoreName.storeUUID] as? String ?? ""
        let sql = "INSERT OR REPLACE INTO Z_METADATA (Z_KEY, Z_VALUE) VALUES (?, ?)"
        try connection.run(sql, [.text("uuid"), .text(uuid)])
        try connection.run(sql, [.text("modelHash"), .text(fingerprint)])
        try connection.run(sql, [.text("formatVersion"), .text(formatVersion)])
        try connection.run(sql, [.text("metadata"), .blob(data)])
    }

    /// The dictionary as a binary property list, or an error naming the first key whose value is not a property
    /// list value (a string, number, date, data, array or dictionary of them).
    static func encode(_ metadata: [String: Any]) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
        } catch {
            let bad = metadata.keys.sorted().first { key in
                (try? PropertyListSerialization.data(fromPropertyList: [key: metadata[key]!], format: .binary, options: 0)) == nil
            }
            throw PersistenceError(.persistentStoreSave, "The store's metadata cannot be saved: the value under '\(bad ?? "?")' is not a property list value (a string, number, date, data, array or dictionary of them).", key: bad)
        }
    }
}
