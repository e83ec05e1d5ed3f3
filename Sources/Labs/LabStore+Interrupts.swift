import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LabStore {
    /// The folders of the stores that exist now: a full-size lab leaves hundreds of MB in the temporary directory
    /// if Ctrl-C ends it and nobody removes them.
    static let folders = StoreFolders()

    /// Catches Ctrl-C and the other interrupts: removes the stores' folders, then ends the process by the same
    /// signal, so `lessons lab` sees how it ended.
    static func removeFoldersOnInterrupt() {
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                folders.removeAll()
                endProcess(like: number)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Ends the process by `number` with its default action. Dispatch's threads block signals, so this one is
    /// unblocked for the raise; if the signal does not end the process after all, the exit status says which it was.
    private static func endProcess(like number: Int32) -> Never {
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        exit(128 + number)
    }

    /// Kept for the process's lifetime: a signal source that is released stops listening.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []
}

/// The set of store folders, shared by the lab's thread and the interrupt handler's queue.
final class StoreFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var folders: Set<URL> = []

    func insert(_ folder: URL) {
        lock.withLock { _ = folders.insert(folder) }
    }

    /// Forgets `folder` and deletes it with the store's files in it.
    func remove(_ folder: URL) {
        lock.withLock { _ = folders.remove(folder) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Deletes every folder still there, for a process about to end: the lock stays held, so no store can start
    /// between this and the end.
    func removeAll() {
        lock.lock()
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        folders = []
    }
}
