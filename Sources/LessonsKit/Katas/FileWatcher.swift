import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits until a file under some paths changes. On Linux inotify wakes it as soon as a file is written; it
/// always also compares modification times and sizes every `pollInterval`, which is the whole mechanism
/// where inotify is missing (macOS, containers without it, network file systems).
public final class FileWatcher {
    public struct Stamp: Equatable, Sendable {
        var modified: Date
        var size: Int
    }

    public let paths: [URL]
    public let pollInterval: TimeInterval
    private var last: [String: Stamp]
    private var notifier: Int32 = -1

    /// How changes are noticed: `"inotify"` or `"polling"`.
    public var mechanism: String { notifier >= 0 ? "inotify" : "polling" }

    public init(paths: [URL], pollInterval: TimeInterval = 1, useNotifications: Bool = true) {
        self.paths = paths
        self.pollInterval = pollInterval
        last = [:]
        last = snapshot()
        if useNotifications { startNotifications() }
    }

    deinit {
        #if os(Linux)
        if notifier >= 0 { close(notifier) }
        #endif
    }

    /// Every regular file under the paths (folders are walked), with its stamp. Hidden files and editors'
    /// swap files are left out so that opening a file does not count as a change.
    public func snapshot() -> [String: Stamp] {
        var result: [String: Stamp] = [:]
        let fileManager = FileManager.default
        func add(_ url: URL) {
            let name = url.lastPathComponent
            guard !name.hasPrefix("."), !name.hasSuffix("~"), !name.hasSuffix(".swp") else { return }
            guard let attributes = try? fileManager.attributesOfItem(atPath: url.path) else { return }
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                let children = (try? fileManager.contentsOfDirectory(atPath: url.path)) ?? []
                for child in children.sorted() { add(url.appendingPathComponent(child)) }
            } else {
                let modified = attributes[.modificationDate] as? Date ?? .distantPast
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                result[url.path] = Stamp(modified: modified, size: size)
            }
        }
        paths.forEach(add)
        return result
    }

    /// Blocks until something changed (returns the changed paths) or `timeout` passed (returns []).
    public func waitForChange(timeout: TimeInterval? = nil) -> [String] {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            let wait = min(pollInterval, deadline.map { max(0, $0.timeIntervalSinceNow) } ?? pollInterval)
            sleepOrNotify(wait)
            let now = snapshot()
            if now != last {
                // Editors write in several steps; give them a moment, then take the settled state.
                Thread.sleep(forTimeInterval: 0.2)
                let settled = snapshot()
                let changed = Set(settled.keys).union(last.keys).filter { settled[$0] != last[$0] }.sorted()
                last = settled
                if !changed.isEmpty { return changed }
            }
            if let deadline, deadline.timeIntervalSinceNow <= 0 { return [] }
        }
    }

    private func sleepOrNotify(_ seconds: TimeInterval) {
        #if os(Linux)
        if notifier >= 0 {
            var descriptor = pollfd(fd: notifier, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(seconds * 1000)) > 0 { drainNotifications() }
            return
        }
        #endif
        Thread.sleep(forTimeInterval: seconds)
    }

    private func startNotifications() {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY)
        var watching = 0
        var folders = Set<String>()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else { continue }
            // inotify is not recursive: watch each folder (a file is watched through its folder, which also
            // sees editors that save by renaming a new file over the old one).
            folders.insert(isDirectory.boolValue ? path.path : path.deletingLastPathComponent().path)
            if isDirectory.boolValue, let enumerator = FileManager.default.enumerator(atPath: path.path) {
                while let relative = enumerator.nextObject() as? String {
                    let full = path.appendingPathComponent(relative).path
                    var childIsDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory),
                       childIsDirectory.boolValue {
                        folders.insert(full)
                    }
                }
            }
        }
        for folder in folders where inotify_add_watch(descriptor, folder, mask) >= 0 { watching += 1 }
        if watching > 0 { notifier = descriptor } else { close(descriptor) }
        #endif
    }

    private func drainNotifications() {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(notifier, &buffer, buffer.count) > 0 {}
        #endif
    }
}
