import Foundation

/// Where lesson 3's model, drawn in Xcode's format, ships: `Groups.xcdatamodeld`, a resource of this module.
///
/// It describes the same `Group` and `Item` entities as the model you write in code (`GroupModel.make()`), the
/// way an app's `.xcdatamodeld` would, and one thing more: a fetch index on `Item.title`, called `byTitle`, which
/// only the file declares — so a container's model tells whether it was read from the file. A container finds the
/// file by its name in ``bundle``.
public enum GroupModelFile {
    /// The model file's name without its extension: the name a container is given.
    public static let name = "Groups"
    /// The bundle that holds the model file (this module's resources).
    public static var bundle: Bundle { Bundle.module }
}
