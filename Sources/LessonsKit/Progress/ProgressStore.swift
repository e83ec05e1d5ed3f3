import Foundation

/// Loads and saves the progress file. A file that cannot be read as progress is moved aside (never deleted)
/// and a fresh one is started, with a warning for the learner: progress never stops the command.
public struct ProgressStore: Sendable {
    public let file: URL
    public private(set) var progress: LearnerProgress
    /// Set when the file was corrupt: says what happened and where the old file went.
    public private(set) var warning: String?

    public init(file: URL, now: Date = Date()) {
        self.file = file
        guard let data = FileManager.default.contents(atPath: file.path) else {
            progress = LearnerProgress()
            return
        }
        do {
            let decoded = try JSONDecoder().decode(LearnerProgress.self, from: data)
            guard decoded.format == 1 else {
                throw LessonsError(.io, "format \(decoded.format) is newer than this version of lessons reads (1)")
            }
            progress = decoded
        } catch {
            progress = LearnerProgress()
            let stamp = Self.timestamp(now).replacingOccurrences(of: ":", with: "")
            let aside = file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".corrupt-" + stamp)
            let reason = (error as? LessonsError)?.message ?? "not valid progress JSON"
            do {
                try FileManager.default.moveItem(at: file, to: aside)
                warning = "the progress file \(file.lastPathComponent) could not be read (\(reason)); it was kept as "
                    + "\(aside.lastPathComponent) and a fresh one started"
            } catch {
                warning = "the progress file \(file.path) could not be read (\(reason)) nor moved aside "
                    + "(\(error.localizedDescription)); progress is not being saved"
            }
        }
    }

    /// Changes the progress and writes the whole file atomically (a crash leaves the old file or the new one).
    public mutating func update(_ change: (inout LearnerProgress) -> Void) throws(LessonsError) {
        change(&progress)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(progress)
            try (data + Data("\n".utf8)).write(to: file, options: .atomic)
        } catch {
            throw LessonsError(.io, "cannot save progress to \(file.path): \(error.localizedDescription)")
        }
    }

    /// ISO 8601 in UTC, second precision.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
