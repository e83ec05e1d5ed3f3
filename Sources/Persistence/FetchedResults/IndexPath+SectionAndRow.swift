import Foundation

// Foundation's IndexPath exists on Linux, but its `section`, `row` and `item` — what every table of a fetched
// results controller reads — come from UIKit and AppKit on Apple platforms. These give Linux the same spellings, so
// `indexPath.row` and `IndexPath(row: 0, section: 1)` read as they do in an app. Where UIKit or AppKit is present,
// theirs are used.

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// An index path to `row` of `section` (UIKit's initializer): two indexes, the section first.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// An index path to `item` of `section` (the collection-view spelling of ``init(row:section:)``).
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The first index: the section. The index path must have two indexes.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The second index: the row within the section. The index path must have two indexes.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The second index, by its collection-view name (the same as ``row``).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
#endif
