import Persistence

/// The items a list on screen shows, kept by the list: what keeps them registered in the view context.
final class ScreenList: @unchecked Sendable {
    var items: [ImportedItem] = []
}
