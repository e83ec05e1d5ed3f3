import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's peak resident memory: for the whole run, and — on Linux — for one step of it.
///
/// Linux lets a process reset its own peak (writing 5 to `/proc/self/clear_refs` sets `VmHWM`, and `ru_maxrss`
/// with it, back to the memory in use now), so each way a lab measures gets its own peak instead of the largest so
/// far. The gauge keeps the whole run's peak across those resets. Elsewhere a step's peak is not available.
struct MemoryGauge {
    /// The largest peak seen before a reset.
    private var earlierPeakMB = 0.0

    /// Starts a step: from now on the peak is the memory in use now or more. False when the peak cannot be reset
    /// here.
    mutating func beginStep() -> Bool {
        #if canImport(Glibc)
        earlierPeakMB = runPeakMB
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
        #else
        return false
        #endif
    }

    /// The peak since ``beginStep()``, in MB (`VmHWM` in `/proc/self/status`).
    var stepPeakMB: Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
                .flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    /// The whole run's peak so far, in MB.
    var runPeakMB: Double {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        let now = Double(usage.ru_maxrss) / 1_048_576      // bytes
        #else
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let now = Double(usage.ru_maxrss) / 1024           // kilobytes
        #endif
        // The kernel updates ru_maxrss lazily after a reset: VmHWM may be ahead of it.
        return max(now, stepPeakMB ?? 0, earlierPeakMB)
    }
}
