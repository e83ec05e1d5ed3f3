import Foundation
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) import Persistence
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

extension PersistenceTestCase {
    /// Evaluates each predicate over the movies `build` makes, three ways — in memory (``FetchPredicate/evaluate(with:)``
    /// on each movie), by fetching the unsaved objects, and in SQL (a fresh context's fetch after saving) — and
    /// returns one line for each predicate on which they do not all agree.
    func predicateDisagreements(_ predicates: [FetchPredicate], build: (ManagedObjectContext) throws -> Void) throws -> [String] {
        try predicateDisagreements(predicates, of: Movie.self, label: \.title, build: build)
    }

    /// ``predicateDisagreements(_:build:)`` over the objects of `type`, each known by its `label` (which must be
    /// unique).
    func predicateDisagreements<T: ManagedObject>(_ predicates: [FetchPredicate], of type: T.Type, label: @escaping (T) -> String,
                                                  build: (ManagedObjectContext) throws -> Void) throws -> [String] {
        let writer = container.newBackgroundContext()
        var memory: [PredicateOutcome] = []
        var unsaved: [PredicateOutcome] = []
        try writer.performAndWait {
            try build(writer)
            let objects = try writer.fetch(FetchRequest<T>(entityName: T.entity().name!))
            for predicate in predicates {
                memory.append(PredicateOutcome { try objects.filter { try predicate.evaluate(checking: $0) }.map(label) })
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
        var lines: [String] = []
        for (index, predicate) in predicates.enumerated()
        where memory[index] != unsaved[index] || memory[index] != stored[index] {
            lines.append("\(predicate.predicateFormat)\n    memory: \(memory[index])\n    unsaved: \(unsaved[index])\n    SQL: \(stored[index])")
        }
        return lines
    }
}
