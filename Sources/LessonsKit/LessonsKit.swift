/// The lessons library: catalog, Markdown rendering and kata running live here.
public enum LessonsKit {
    /// The version printed by `lessons --version`.
    public static let version = "0.1.0"
}
