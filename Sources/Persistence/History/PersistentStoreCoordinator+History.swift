extension PersistentStoreCoordinator {
    /// The token of the newest transaction in the store's persistent history (Core Data's
    /// `currentPersistentHistoryToken(fromStores:)`): a reader that starts now reads on from it. `nil` when the store
    /// has no history or has recorded no transaction yet. `stores` is ignored: a coordinator has one store here.
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> PersistentHistoryToken? {
        try? withStore { store -> PersistentHistoryToken? in
            guard let number = try store.newestHistoryTransaction(), number > 0 else { return nil }
            return PersistentHistoryToken(storeIdentifier: store.identifier, transactionNumber: number)
        }
    }
}
