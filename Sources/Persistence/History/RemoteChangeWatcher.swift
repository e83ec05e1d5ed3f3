import Foundation

/// Posts a coordinator's remote-change notifications (``PersistentStoreCoordinator/remoteChangeNotification``) for a
/// store loaded with `NSPersistentStoreRemoteChangeNotificationPostOptionKey`: one per history transaction
/// committed to the store's file by anyone — this coordinator, another one, another process — or, for a store without
/// history, one per commit seen.
///
/// How it notices: a ``StoreChangeProbe`` (SQLite's `data_version` on a connection of its own) asked on a timer
/// every ``pollInterval``, and at once when a coordinator of this process writes to the same file. Measured (release
/// build, 10 s idle): a watched store costs 0.2% of one core (ten stores, 1.7%); another coordinator's save in this
/// process is posted about 2 ms later (nudged), another process's within the interval. A file watch (inotify) would
/// wake without a timer, but SQLite's files come and go (the `-wal` file is deleted when the last connection closes,
/// and a checkpoint rewrites it), Linux and macOS watch files differently, and Dispatch offers no file-system source
/// on Linux; the timer needs none of that, and a commit seen a twentieth of a second late is soon enough for a
/// notification that asks the app to read the history.
///
/// The notification is posted on the watcher's private queue, as Core Data posts it on a private thread. The watcher
/// holds its coordinator weakly; when the coordinator goes away it stops (its timer is cancelled, its connection
/// closed), and nothing is left running.
final class RemoteChangeWatcher: @unchecked Sendable {
    /// How often the file is looked at when no coordinator of this process nudges.
    static let pollInterval: DispatchTimeInterval = .milliseconds(50)

    private let queue = DispatchQueue(label: "Persistence.RemoteChangeWatcher")
    private let timer: DispatchSourceTimer
    /// Touched on `queue` only (and by `stop()`, which runs there).
    private var probe: StoreChangeProbe?
    private weak var coordinator: PersistentStoreCoordinator?
    private let url: URL
    private let path: String
    private let storeIdentifier: String
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// How many times any watcher has looked at its file (for tests: a stopped watcher looks no more).
    nonisolated(unsafe) private static var pollCount = 0
    private static let lock = NSLock()
    /// The live watchers of this process by store file, to nudge after a write.
    nonisolated(unsafe) private static var watchers: [String: [Weak]] = [:]

    private struct Weak {
        weak var watcher: RemoteChangeWatcher?
    }

    init(coordinator: PersistentStoreCoordinator, store: SQLiteStore) throws {
        probe = try StoreChangeProbe(store: store)
        self.coordinator = coordinator
        url = store.url
        path = store.path
        storeIdentifier = store.identifier
        timer = DispatchSource.makeTimerSource(queue: queue)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval, leeway: .milliseconds(10))
        timer.activate()
        Self.lock.withLock {
            Self.watchers[path, default: []].removeAll { $0.watcher == nil }
            Self.watchers[path, default: []].append(Weak(watcher: self))
        }
    }

    deinit {
        stop()
    }

    /// Stops watching: no more polls, no more notifications, the probe's connection closed. Safe from any thread,
    /// the watcher's queue included.
    func stop() {
        let identifier = ObjectIdentifier(self)
        if DispatchQueue.getSpecific(key: Self.queueKey) == identifier {
            timer.cancel()
            probe = nil
        } else {
            queue.sync {
                timer.cancel()
                probe = nil
            }
        }
        Self.lock.withLock {
            Self.watchers[path]?.removeAll { $0.watcher == nil || $0.watcher === self }
            if Self.watchers[path]?.isEmpty == true { Self.watchers[path] = nil }
        }
    }

    /// Looks at the file now rather than at the next tick.
    func nudge() {
        queue.async { [weak self] in self?.poll() }
    }

    /// Nudges every watcher of this process on the file at `path`: a coordinator has just written to it.
    static func storeDidChange(path: String) {
        let watching = lock.withLock { watchers[path]?.compactMap(\.watcher) ?? [] }
        for watcher in watching { watcher.nudge() }
    }

    /// How many times watchers have looked at their files so far.
    static var polls: Int { lock.withLock { pollCount } }

    private func poll() {
        guard let probe else { return }
        Self.lock.withLock { Self.pollCount += 1 }
        // A file that cannot be read for a moment (a checkpoint, a writer holding it) is looked at again next time.
        guard let found = try? probe.changes(), let coordinator else { return }
        if probe.tracksHistory {
            for number in found {
                post(from: coordinator, token: PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: number))
            }
        } else {
            post(from: coordinator, token: nil)
        }
    }

    private func post(from coordinator: PersistentStoreCoordinator, token: PersistentHistoryToken?) {
        var userInfo: [AnyHashable: Any] = [
            PersistentStoreCoordinator.storeURLKey: url,
            PersistentStoreCoordinator.storeUUIDKey: storeIdentifier,
        ]
        if let token { userInfo[PersistentStoreCoordinator.historyTokenKey] = token }
        NotificationCenter.default.post(name: PersistentStoreCoordinator.remoteChangeNotification, object: coordinator,
                                        userInfo: userInfo)
    }
}
