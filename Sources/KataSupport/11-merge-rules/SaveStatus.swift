/// What a save reported (document 002's first rule has its storage report one of these): the changes were
/// written, there were none to write, or the save failed — with the error, and with the context rolled back.
public enum SaveStatus: Sendable, CustomStringConvertible {
    case saved
    case hasNoChanges
    case failed(any Error)

    public var description: String {
        switch self {
        case .saved: return ".saved"
        case .hasNoChanges: return ".hasNoChanges"
        case .failed(let error): return ".failed(\(error))"
        }
    }
}
