/// How an edit screen on the main context copes with background saves of the post it edits (document 002, rule
/// 3.1). Lesson 11 shows each; `none` is the default that fails with "Could not merge changes." (133020).
public enum ConflictFix: String, Sendable, CaseIterable {
    /// Nothing: the default merge policy (`.error`), no merging. A background save of the post makes the screen's
    /// next save fail.
    case none
    /// Solution 1: the main context merges every save made through the store as it happens.
    case automaticMerging
    /// Solution 2: the merge policy `mergeByPropertyObjectTrump`: at the save, the screen's own changes win, and the
    /// properties only the background changed keep the background's values.
    case objectTrump
    /// Solution 3: re-read the post from the store, keeping the screen's changes, just before saving.
    case refreshBeforeSaving
}
