import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence

/// A model for the `ManagedObject` hooks apps override: countries and their moods, each mood with its entries.
///
/// Country ─nullify→ Mood ─cascade→ Entry;  Mood.country nullify, Entry.mood nullify.
/// Every hook of `Mood` and `Country` appends to ``HookModel/log`` and runs the closure a test sets, if any.
enum HookModel {
    /// What the hooks did, in order ("prepare Mood calm", …). Tests run one at a time, so a shared log is safe.
    nonisolated(unsafe) static var log: [String] = []
    /// Per-test behaviour of the hooks, by hook name ("prepareForDeletion", "validateForInsert", …).
    nonisolated(unsafe) static var behaviour: [String: (ManagedObject) throws -> Void] = [:]
    /// What ``Mood``'s `validateValue(_:forKey:)` does with a value, when set.
    nonisolated(unsafe) static var valueCheck: ((inout Any?, String, Mood) throws -> Void)?

    static func reset() {
        log = []
        behaviour = [:]
        valueCheck = nil
    }

    static func note(_ hook: String, _ object: ManagedObject, _ name: String) {
        log.append("\(hook) \(object.entity.name ?? "") \(name)")
    }

    final class Country: ManagedObject {
        @Managed var name: String
        @Managed var remark: String?
        @Managed var moods: Set<Mood>

        override func willSave() {
            super.willSave()
            try? behaviour["willSave"]?(self)
        }

        override func prepareForDeletion() {
            super.prepareForDeletion()
            note("prepare", self, name)
            try? behaviour["prepareForDeletion"]?(self)
        }

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Country> {
            FetchRequest<Country>(entityName: "Country")
        }
    }

    final class Mood: ManagedObject {
        @Managed var name: String
        @Managed var level: Int
        @Managed var country: Country?
        @Managed var entries: Set<Entry>

        override func prepareForDeletion() {
            super.prepareForDeletion()
            note("prepare", self, name)
            try? behaviour["prepareForDeletion"]?(self)
        }

        override func validateForInsert() throws {
            try super.validateForInsert()
            note("validateForInsert", self, name)
            try behaviour["validateForInsert"]?(self)
        }

        override func validateForUpdate() throws {
            try super.validateForUpdate()
            note("validateForUpdate", self, name)
            try behaviour["validateForUpdate"]?(self)
        }

        override func validateForDelete() throws {
            try super.validateForDelete()
            note("validateForDelete", self, name)
            try behaviour["validateForDelete"]?(self)
        }

        override func validateValue(_ value: inout Any?, forKey key: String) throws {
            try super.validateValue(&value, forKey: key)
            try valueCheck?(&value, key, self)
        }

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Mood> {
            FetchRequest<Mood>(entityName: "Mood")
        }
    }

    final class Entry: ManagedObject {
        @Managed var text: String
        @Managed var mood: Mood?

        override func prepareForDeletion() {
            super.prepareForDeletion()
            note("prepare", self, text)
        }

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Entry> {
            FetchRequest<Entry>(entityName: "Entry")
        }
    }

    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Country", managedObjectClass: Country.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("remark", .string),
                .toMany("moods", "Mood", inverse: "country"),
            ]),
            EntityDescription(name: "Mood", managedObjectClass: Mood.self, properties: [
                .attribute("name", .string, optional: false),
                .attribute("level", .integer32, defaultValue: 0),
                .toOne("country", "Country", inverse: "moods"),
                .toMany("entries", "Entry", inverse: "mood", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Entry", managedObjectClass: Entry.self, properties: [
                .attribute("text", .string, optional: false),
                .toOne("mood", "Mood", inverse: "entries"),
            ]),
        ])
    }
}
