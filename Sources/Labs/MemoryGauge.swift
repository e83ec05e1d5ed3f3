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
/// The kernel counts each thread's pages in batches, so a reading may be off by a fraction of a MB.
struct MemoryGauge {
    /// The largest peak seen so far, before the last reset included.
    private var largestSeenMB = 0.0

    /// Starts a step: memory the program has freed goes back to the system, then the peak is reset to the memory
    /// in use now. False when the peak cannot be reset here.
    mutating func beginStep() -> Bool {
        #if canImport(Glibc)
        largestSeenMB = runPeakMB
        // Without this, freed heap that glibc keeps (about 180 MB after the search lab fills its store) would count
        // as in use, and every step would start from the last one's high-water mark.
        Self.returnFreedMemory()
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
        #else
        return false
        #endif
    }

    /// Ends a step begun with ``beginStep()``: its peak, in MB.
    mutating func endStep() -> Double? {
        guard let peak = Self.highWaterMarkMB() else { return nil }
        largestSeenMB = max(largestSeenMB, peak)
        return peak
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
        return max(now, Self.highWaterMarkMB() ?? 0, largestSeenMB)
    }

    /// `VmHWM` in `/proc/self/status`, in MB: the peak since the process started or the last reset.
    private static func highWaterMarkMB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
                .flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    /// Makes the allocator keep one heap for every thread (glibc's `mallopt(M_ARENA_MAX, 1)`); call it before the
    /// lab starts any thread. With a heap per thread, what one way freed on a background queue can stay resident
    /// through `malloc_trim`, and the next way's peak would count it: measured here, the import lab's second way
    /// read 56 MB after the first instead of the 30 MB it uses. One heap makes each way's peak its own.
    static func useOneHeap() {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let arenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
        _ = unsafeBitCast(symbol, to: MallOpt.self)(arenaMax, 1)
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_trim(0)`, which Swift's Glibc module does not declare, looked up by name.
    private static func returnFreedMemory() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
    #endif
}
