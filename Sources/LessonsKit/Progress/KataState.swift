/// A kata's last result as the progress file keeps it. The raw values are the words written to
/// `.lessons-progress.json`, so files written before this type existed read the same.
public enum KataState: String, Codable, Sendable, CaseIterable {
    case passed
    case failed
    case skipped
    case notRun = "not run"
}
