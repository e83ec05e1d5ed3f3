/// The lessons library: the lesson catalog, Markdown rendering (terminal and HTML), kata running and progress.
public enum LessonsKit {
    /// The version printed by `lessons --version`.
    public static let version = "0.2.0"
}
