import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension HTMLSiteBuilder {
    /// Makes sure `folder` exists as a folder, creating what is missing one level at a time, so a failure
    /// names the real cause (a file in the way, no permission, a read-only or virtual file system) instead
    /// of Foundation's "error 512".
    static func prepareFolder(_ folder: URL) throws(LessonsError) {
        let target = folder.standardizedFileURL
        var missing: [URL] = []
        var current = target
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: current.path, isDirectory: &isDirectory) {
            missing.insert(current, at: 0)
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        func failure(_ reason: String) -> LessonsError {
            LessonsError(.io, "cannot write the handouts into \(target.path): \(reason)")
        }
        if !isDirectory.boolValue {
            throw failure(current.path == target.path ? "it is a file, not a folder"
                          : "\(current.path) is a file, not a folder")
        }
        for directory in missing where mkdir(directory.path, 0o755) != 0 && errno != EEXIST {
            throw failure("cannot create the folder \(directory.path): " + Self.reason(errno,
                                                                                    parent: directory.deletingLastPathComponent().path))
        }
    }

    /// Why a file could not be written, from the POSIX error under Foundation's.
    static func reason(writing file: URL, _ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return "cannot write \(file.path): " + reason(Int32(underlying.code), parent: file.deletingLastPathComponent().path)
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return "cannot write \(file.path): " + reason(Int32(nsError.code), parent: file.deletingLastPathComponent().path)
        }
        return "cannot write \(file.path): \(error.localizedDescription)"
    }

    private static func reason(_ code: Int32, parent: String) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied in \(parent)"
        case EROFS: return "\(parent) is on a read-only file system"
        case ENOSPC: return "no space left on the disk"
        case ENOENT: return "\(parent) does not allow new files (a system folder such as /proc or /sys)"
        default: return String(cString: strerror(code))
        }
    }
}
