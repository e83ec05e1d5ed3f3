import Foundation

/// Switches on one known-wrong answer at a time. The code in this module is the reference solution with
/// mistakes added, each behind `Decoy.isActive("id")`; `lessons verify` runs a lesson's katas once per decoy with
/// `LESSONS_DECOY=id` and expects at least one kata to fail. With no decoy named, this module behaves like the
/// solution.
///
/// The ids are listed in `lessons/manifest.json` (`decoys`), which `lessons verify` compares with the
/// `Decoy.isActive("…")` calls it finds here.
enum Decoy {
    /// The id in `LESSONS_DECOY`, read once.
    static let active: String? = ProcessInfo.processInfo.environment["LESSONS_DECOY"]

    static func isActive(_ id: String) -> Bool {
        active == id
    }
}
