/// One deck of the study server's catalog: its code, which identifies it, and its current name.
public struct DeckEntry: Sendable, Equatable {
    public var code: String
    public var name: String

    public init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}
