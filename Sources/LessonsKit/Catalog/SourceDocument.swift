/// A source document the lessons are based on (kept outside the package; lessons cite its sections by name).
public struct SourceDocument: Equatable, Sendable, Decodable {
    /// A short id such as `"000"`, used by lessons' `sources`.
    public var id: String
    public var title: String
}
