import Foundation

/// Runs many short programs, a few at a time, each writing its output to a file of its own.
///
/// For `lessons verify`, whose runs (one per decoy) spend most of their time waiting on queues and timers: two
/// cores keep several of them going. Each job gets a temporary folder of its own (`TMPDIR`), so that two runs
/// that write a file under the same name do not meet. The children share this process's group and nothing is
/// forwarded to them: a Ctrl-C from the terminal ends them together with `lessons`.
public enum ProcessPool {
    public struct Job: Sendable {
        public var arguments: [String]
        /// Added to this process's environment.
        public var environment: [String: String]
        /// Where the job's standard output and error go.
        public var log: URL

        public init(arguments: [String], environment: [String: String] = [:], log: URL) {
            self.arguments = arguments
            self.environment = environment
            self.log = log
        }
    }

    /// How many jobs run at once by default: four per core, since the jobs mostly wait (verify's runs sit in
    /// timeouts; on two cores its runs took 84 s four at a time, 57 s eight, 53 s twelve).
    public static var defaultWidth: Int { max(4, 4 * ProcessInfo.processInfo.activeProcessorCount) }

    /// How one job ended: its exit status and how long it ran.
    public struct Outcome: Sendable, Equatable {
        public var status: Int32
        public var seconds: TimeInterval
    }

    /// Runs every job in `directory`, at most `width` at a time, starting them in `order` (indices into `jobs`; by
    /// default their own order): starting the longest first keeps the last few from running alone at the end while
    /// the other slots sit idle. `onFinish` is called on the calling thread as each ends, with its index and outcome.
    /// Returns the outcomes in the jobs' order. A job that cannot start has its reason written to its log and
    /// status 127.
    public static func run(_ jobs: [Job], in directory: URL, width: Int = defaultWidth, order: [Int]? = nil,
                           onFinish: (Int, Outcome) -> Void = { _, _ in }) -> [Outcome] {
        let order = order.flatMap { $0.sorted() == Array(jobs.indices) ? $0 : nil } ?? Array(jobs.indices)
        let state = State(order: order)
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("lessons-pool-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Threads of our own rather than `concurrentPerform`, which runs no more at once than there are cores.
        for _ in 0..<max(1, min(width, jobs.count)) {
            Thread {
                while let index = state.takeNext() {
                    let start = Date()
                    let status = run(jobs[index], in: directory,
                                     temporary: scratch.appendingPathComponent("\(index)", isDirectory: true))
                    state.finish(index, Outcome(status: status, seconds: Date().timeIntervalSince(start)))
                }
            }.start()
        }
        var outcomes = Array(repeating: Outcome(status: 127, seconds: 0), count: jobs.count)
        for _ in jobs.indices {
            let (index, outcome) = state.nextFinished()
            outcomes[index] = outcome
            onFinish(index, outcome)
        }
        return outcomes
    }

    private static func run(_ job: Job, in directory: URL, temporary: URL) -> Int32 {
        var environment = ProcessInfo.processInfo.environment.merging(job.environment) { _, new in new }
        environment["TMPDIR"] = temporary.path
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            var child = try ChildProcess.start(job.arguments, in: directory, environment: environment,
                                               group: .sharedUnforwarded, input: .null, output: .file(job.log.path))
            return child.wait().status
        } catch {
            try? Data("cannot run \(job.arguments.joined(separator: " ")): \(error)\n".utf8).write(to: job.log)
            return 127
        }
    }

    /// The jobs still to start and those that have ended, shared by the workers and the caller.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private let ended = DispatchSemaphore(value: 0)
        /// The jobs' indices in the order they start.
        private let order: [Int]
        private var next = 0
        private var finished: [(index: Int, outcome: Outcome)] = []

        init(order: [Int]) {
            self.order = order
        }

        func takeNext() -> Int? {
            lock.withLock {
                guard next < order.count else { return nil }
                defer { next += 1 }
                return order[next]
            }
        }

        func finish(_ index: Int, _ outcome: Outcome) {
            lock.withLock { finished.append((index, outcome)) }
            ended.signal()
        }

        /// Waits for a job to end and returns it (each once).
        func nextFinished() -> (index: Int, outcome: Outcome) {
            ended.wait()
            return lock.withLock { finished.removeFirst() }
        }
    }
}
