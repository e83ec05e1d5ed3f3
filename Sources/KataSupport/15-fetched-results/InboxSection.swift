/// One section of the inbox screen: a folder, with its header, its entry in the section index, and its rows.
public struct InboxSection: Equatable {
    /// The section's name: the folder, as the controller names the section ("taxes").
    public var name: String
    /// Its entry in the section index beside the list ("Ta"), as the controller gives it.
    public var indexTitle: String?
    /// Its rows, top to bottom.
    public var rows: [InboxRow]

    public init(name: String, indexTitle: String?, rows: [InboxRow]) {
        self.name = name
        self.indexTitle = indexTitle
        self.rows = rows
    }
}
