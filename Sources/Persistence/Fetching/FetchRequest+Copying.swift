extension FetchRequest {
    /// Takes every setting of `other` (a request of another `Result` type): entity, predicate, sort, limits, faulting,
    /// pending changes, subentities, result type and properties.
    func adoptSettings<Other>(of other: FetchRequest<Other>) {
        if let entity = other.entity { self.entity = entity }
        predicate = other.predicate
        sortDescriptors = other.sortDescriptors
        fetchLimit = other.fetchLimit
        fetchOffset = other.fetchOffset
        fetchBatchSize = other.fetchBatchSize
        returnsObjectsAsFaults = other.returnsObjectsAsFaults
        includesPendingChanges = other.includesPendingChanges
        includesSubentities = other.includesSubentities
        resultType = other.resultType
        propertiesToFetch = other.propertiesToFetch
        returnsDistinctResults = other.returnsDistinctResults
    }
}
