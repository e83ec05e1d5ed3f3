import Foundation
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) @testable import Persistence
import XCTest

/// What one predicate selects among the objects of a graph (by their labels), or that it failed.
enum PredicateOutcome: Equatable, CustomStringConvertible {
    case matches(Set<String>)
    case failed(String)

    static func == (lhs: PredicateOutcome, rhs: PredicateOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.matches(let a), .matches(let b)): return a == b
        case (.failed, .failed): return true  // the message may differ between SQL and memory
        default: return false
        }
    }

    var description: String {
        switch self {
        case .matches(let titles): return "\(titles.sorted())"
        case .failed(let message): return "error: \(message)"
        }
    }

    init(_ body: () throws -> [String]) {
        do { self = .matches(Set(try body())) } catch { self = .failed("\(error)") }
    }
}

/// One predicate's answers over a graph: in memory, by a fetch of the unsaved objects, from the store, and what
/// Core Data's SQLite store answers (``CoreDataSQLReading``).
struct PredicateAnswers {
    var format: String
    var memory: PredicateOutcome
    var unsaved: PredicateOutcome
    var stored: PredicateOutcome
    var coreDataSQL: PredicateOutcome

    /// The store answers as Core Data's, and a fetch of unsaved objects as memory.
    var agree: Bool { memory == unsaved && stored == coreDataSQL }

    /// Core Data's store leaves out objects that memory's answer has: a NOT over a comparison with nil.
    var sqlLeavesOutNilUnderNOT: Bool { memory != coreDataSQL }

    var description: String {
        "\(format)\n    memory: \(memory)\n    unsaved: \(unsaved)\n    SQL: \(stored)\n    Core Data's SQL: \(coreDataSQL)"
    }
}

extension PersistenceTestCase {
    /// Evaluates each predicate over the movies `build` makes, three ways — in memory (``FetchPredicate/evaluate(with:)``
    /// on each movie), by fetching the unsaved objects, and in SQL (a fresh context's fetch after saving) — and
    /// returns one line for each predicate on which they do not agree: the unsaved objects must be answered as in
    /// memory, and the store as Core Data's SQLite store answers, which differs from memory in one named way (see
    /// ``CoreDataSQLReading``).
    func predicateDisagreements(_ predicates: [FetchPredicate], build: (ManagedObjectContext) throws -> Void) throws -> [String] {
        try predicateDisagreements(predicates, of: Movie.self, label: \.title, build: build)
    }

    /// ``predicateDisagreements(_:build:)`` over the objects of `type`, each known by its `label` (which must be
    /// unique).
    func predicateDisagreements<T: ManagedObject>(_ predicates: [FetchPredicate], of type: T.Type, label: @escaping (T) -> String,
                                                  build: (ManagedObjectContext) throws -> Void) throws -> [String] {
        try predicateAnswers(predicates, of: type, label: label, build: build).filter { !$0.agree }.map(\.description)
    }

    /// Each predicate's answers over the objects of `type` that `build` makes, each known by its `label`.
    func predicateAnswers<T: ManagedObject>(_ predicates: [FetchPredicate], of type: T.Type, label: @escaping (T) -> String,
                                            build: (ManagedObjectContext) throws -> Void) throws -> [PredicateAnswers] {
        let writer = container.newBackgroundContext()
        var memory: [PredicateOutcome] = []
        var unsaved: [PredicateOutcome] = []
        var coreDataSQL: [PredicateOutcome] = []
        try writer.performAndWait {
            try build(writer)
            let objects = try writer.fetch(FetchRequest<T>(entityName: T.entity().name!))
            for predicate in predicates {
                memory.append(PredicateOutcome { try objects.filter { try predicate.evaluate(checking: $0) }.map(label) })
                coreDataSQL.append(PredicateOutcome { try objects.filter { try CoreDataSQLReading.matches(predicate, $0) }.map(label) })
                let request = FetchRequest<T>(entityName: T.entity().name!)
                request.predicate = predicate
                unsaved.append(PredicateOutcome { try writer.fetch(request).map(label) })
            }
            try writer.save()
        }
        let reader = container.newBackgroundContext()
        let stored: [PredicateOutcome] = reader.performAndWait {
            predicates.map { predicate in
                let request = FetchRequest<T>(entityName: T.entity().name!)
                request.predicate = predicate
                return PredicateOutcome { try reader.fetch(request).map(label) }
            }
        }
        // Agreement by failing everywhere proves little: most predicates must select something, somewhere.
        let failures = memory.filter { if case .failed = $0 { return true } else { return false } }.count
        XCTAssertLessThan(failures * 2, max(predicates.count, 1), "most predicates failed to evaluate: \(memory.first { if case .failed = $0 { return true } else { return false } }!)")
        return predicates.indices.map { index in
            PredicateAnswers(format: predicates[index].predicateFormat, memory: memory[index], unsaved: unsaved[index],
                             stored: stored[index], coreDataSQL: coreDataSQL[index])
        }
    }
}
