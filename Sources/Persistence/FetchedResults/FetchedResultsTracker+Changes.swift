import Foundation

/// Working out a batch: which objects leave, arrive, move or change in place, without fetching again. The request's
/// predicate is evaluated in memory on the changed objects only, and each is put in place by the sort descriptors
/// (``FetchedResultsOrdering``), so a batch costs a pass over the rows to find where the changed objects were, and
/// work in proportion to the changed objects for the rest.
extension FetchedResultsTracker {
    /// The did-change notification's objects, sorted for a batch.
    struct ContextChanges {
        /// Deleted (or invalidated) objects.
        var gone: [ManagedObject] = []
        /// Inserted, updated and refreshed objects.
        var changed: [ManagedObject] = []
    }

    /// An object that belongs to the results after the batch.
    private struct Arrival {
        let object: ManagedObject
        let key: FetchedResultsOrdering.Key
        /// Its row in its section after the batch, once placed.
        var row = 0
    }

    /// The batch `changes` make of `old`; nil when none of them touches the results.
    func batch(for changes: ContextChanges, replacing old: [FetchedResultsSection]) -> FetchedResultsBatch? {
        guard let entity else { return nil }
        let settings = settings()
        // The objects of the request's entity among the changes; those gone from the context first.
        var candidates: [ObjectIdentifier: ManagedObject] = [:]
        var gone = Set<ObjectIdentifier>()
        func relevant(_ object: ManagedObject) -> Bool {
            object.entity.matches(entity, includingSubentities: settings.includesSubentities) && accepts(object)
        }
        for object in changes.gone where relevant(object) {
            candidates[ObjectIdentifier(object)] = object
            gone.insert(ObjectIdentifier(object))
        }
        for object in changes.changed where relevant(object) { candidates[ObjectIdentifier(object)] = object }
        guard !candidates.isEmpty else { return nil }

        // Where they were: one pass over the rows.
        var oldPaths: [ObjectIdentifier: (section: Int, row: Int)] = [:]
        for (sectionIndex, section) in old.enumerated() {
            for (row, object) in section.rows.enumerated() where candidates[ObjectIdentifier(object)] != nil {
                oldPaths[ObjectIdentifier(object)] = (sectionIndex, row)
            }
        }

        // Where they belong now: the predicate and the section key, in memory. Faults are read in bulk first.
        context.fillFaults(candidates.values.filter { $0.faultState == .faultWithoutRow })
        let ordering = FetchedResultsOrdering(settings.sortDescriptors)
        var arrivals: [String: [Arrival]] = [:]
        var sectionOfArrival: [ObjectIdentifier: String] = [:]
        for (id, object) in candidates {
            guard !gone.contains(id), !object.isDeleted, object.managedObjectContext === context,
                  settings.predicate?.evaluate(with: object) ?? true else { continue }
            let name = sectionKeyPath.map { trackedSectionName(of: object, keyPath: $0) } ?? ""
            arrivals[name, default: []].append(Arrival(object: object, key: ordering.key(of: object)))
            sectionOfArrival[id] = name
        }

        // Every candidate leaves its old place…
        var rows = old.map(\.rows)
        var leftRows: [Int: [Int]] = [:]
        for path in oldPaths.values { leftRows[path.section, default: []].append(path.row) }
        for (section, left) in leftRows {
            leftRows[section] = left.sorted()
            rows[section] = Self.removing(rowsAt: leftRows[section]!, from: rows[section])
        }
        var changedSections = Set(leftRows.keys)

        // …and those that belong are put back in order: into their section, or into a new one.
        var oldSectionByName: [String: Int] = [:]
        for (index, section) in old.enumerated() { oldSectionByName[section.name] = index }
        var newSections: [(name: String, arrivals: [Arrival])] = []
        var arrivalRows: [String: [Int]] = [:]
        var rowOfArrival: [ObjectIdentifier: Int] = [:]
        for (name, unsorted) in arrivals {
            var group = unsorted.sorted { ordering.precedes($0.key, $1.key) }
            if let section = oldSectionByName[name] {
                rows[section] = Self.merging(&group, into: rows[section], by: ordering)
                changedSections.insert(section)
            } else {
                for index in group.indices { group[index].row = index }
                newSections.append((name, group))
            }
            for arrival in group { rowOfArrival[ObjectIdentifier(arrival.object)] = arrival.row }
            arrivalRows[name] = group.map(\.row)
        }

        // The sections: the old ones that still hold objects, in their order, and the new ones where their first
        // object sorts among the others' first objects.
        newSections.sort { ordering.precedes($0.arrivals[0].key, $1.arrivals[0].key) }
        let surviving = old.indices.filter { !rows[$0].isEmpty || sectionKeyPath == nil }
        var batch = FetchedResultsBatch(sections: [])
        var newIndexByName: [String: Int] = [:]
        var nextNew = 0
        var nextOld = 0
        while nextNew < newSections.count || nextOld < surviving.count {
            let takeNew = nextNew < newSections.count
                && (nextOld == surviving.count || ordering.precedes(newSections[nextNew].arrivals[0].key, rows[surviving[nextOld]][0]))
            let index = batch.sections.count
            if takeNew {
                let (name, group) = newSections[nextNew]
                let section = makeSection(name, rows: group.map(\.object))
                batch.sections.append(section)
                batch.insertedSections.append((section, index))
                newIndexByName[name] = index
                nextNew += 1
            } else {
                let oldIndex = surviving[nextOld]
                batch.sections.append(changedSections.contains(oldIndex) ? old[oldIndex].with(rows: rows[oldIndex]) : old[oldIndex])
                newIndexByName[old[oldIndex].name] = index
                nextOld += 1
            }
        }
        for index in old.indices where !surviving.contains(index) {
            batch.deletedSections.append((old[index].with(rows: []), index))
        }

        // What each candidate did. An object that stays in its section moved only if its order among the others
        // that stay changed; see `stayers(in:)`.
        var stayCandidates: [String: [(object: ManagedObject, oldRow: Int, newRow: Int)]] = [:]
        for (id, object) in candidates {
            let was = oldPaths[id]
            let name = sectionOfArrival[id]
            switch (was, name) {
            case (nil, nil):
                continue
            case (let was?, nil):
                batch.deletedRows.append((object, IndexPath(indexes: [was.section, was.row])))
            case (nil, let name?):
                batch.insertedRows.append((object, IndexPath(indexes: [newIndexByName[name]!, rowOfArrival[id]!])))
            case (let was?, let name?):
                if old[was.section].name == name {
                    stayCandidates[name, default: []].append((object, was.row, rowOfArrival[id]!))
                } else {
                    batch.movedRows.append((object, IndexPath(indexes: [was.section, was.row]),
                                            IndexPath(indexes: [newIndexByName[name]!, rowOfArrival[id]!])))
                }
            }
        }
        for (name, candidates) in stayCandidates {
            let oldSection = oldSectionByName[name]!
            let newSection = newIndexByName[name]!
            let stay = Self.stayers(candidates.map { ($0.oldRow, $0.newRow) }, left: leftRows[oldSection] ?? [],
                                    arrived: arrivalRows[name] ?? [])
            for (index, candidate) in candidates.enumerated() {
                let from = IndexPath(indexes: [oldSection, candidate.oldRow])
                let to = IndexPath(indexes: [newSection, candidate.newRow])
                if stay.contains(index) {
                    batch.updatedRows.append((candidate.object, from, to))
                } else {
                    batch.movedRows.append((candidate.object, from, to))
                }
            }
        }
        batch.deletedRows.sort { $0.indexPath < $1.indexPath }
        batch.insertedRows.sort { $0.newIndexPath < $1.newIndexPath }
        batch.movedRows.sort { $0.newIndexPath < $1.newIndexPath }
        batch.updatedRows.sort { $0.indexPath < $1.indexPath }
        return batch.isEmpty ? nil : batch
    }

    /// Which of a section's changed objects that stay in it keep their place (reported as updates) rather than
    /// move: given each one's old and new row, the rows that left the section's old list (`left`, sorted) and the
    /// rows that arrived in its new list (`arrived`, sorted), the indexes of those that stay.
    ///
    /// The section's unchanged objects keep their order (they were never taken out). A changed object keeps its
    /// place when as many unchanged objects come before it as before, and its order among the other changed
    /// objects that keep their place is the same: the longest run of them whose new rows increase with their old
    /// ones. The rest are moves. With UIKit's batch rules — deletions and moves' sources at old rows first, then
    /// insertions and moves' targets at new rows — the rows that stay end in the same order, so the rows applied
    /// equal the new list.
    static func stayers(_ candidates: [(oldRow: Int, newRow: Int)], left: [Int], arrived: [Int]) -> Set<Int> {
        func countBelow(_ value: Int, in sorted: [Int]) -> Int {
            var low = 0
            var high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let eligible = candidates.indices
            .filter { candidates[$0].oldRow - countBelow(candidates[$0].oldRow, in: left)
                == candidates[$0].newRow - countBelow(candidates[$0].newRow, in: arrived) }
            .sorted { candidates[$0].oldRow < candidates[$1].oldRow }
        return Set(longestIncreasingRun(eligible.map { candidates[$0].newRow }).map { eligible[$0] })
    }

    /// The positions of a longest strictly increasing subsequence of `values` (patience sorting).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        guard !values.isEmpty else { return [] }
        var tails: [Int] = []          // positions of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last!
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }

    /// `rows` without the rows at `sortedIndexes`, copied in runs.
    private static func removing(rowsAt sortedIndexes: [Int], from rows: [ManagedObject]) -> [ManagedObject] {
        var kept: [ManagedObject] = []
        kept.reserveCapacity(rows.count - sortedIndexes.count)
        var start = 0
        for index in sortedIndexes {
            kept += rows[start..<index]
            start = index + 1
        }
        kept += rows[start...]
        return kept
    }

    /// `rows` (sorted) with `group` (sorted) merged in, each arrival's new row recorded: one binary search per
    /// arrival from where the last one went, and the rows between copied in runs.
    private static func merging(_ group: inout [Arrival], into rows: [ManagedObject],
                                by ordering: FetchedResultsOrdering) -> [ManagedObject] {
        var merged: [ManagedObject] = []
        merged.reserveCapacity(rows.count + group.count)
        var start = 0
        for index in group.indices {
            let at = ordering.insertionIndex(of: group[index].key, in: rows, from: start)
            merged += rows[start..<at]
            group[index].row = merged.count
            merged.append(group[index].object)
            start = at
        }
        merged += rows[start...]
        return merged
    }
}
