import Foundation
import Persistence

/// One row of the inbox screen: the line of text drawn for a message. Drawing is the costly part of a screen (a
/// table view configures a cell), so the only way to make a row is to draw it, ``init(drawing:)``, and every
/// drawing is counted (``drawCount``): a screen that follows the controller's changes draws only the rows that
/// changed.
public struct InboxRow: Equatable {
    /// The message the row shows.
    public let message: MailMessage
    /// The line as it was drawn: `● Lunch on Friday — Ada` (the dot while the message is unread; the sender's
    /// contact name when the message has a contact).
    public let text: String

    /// Draws the row of `message`, as it is now. Use it on the message's context's queue, as the message.
    public init(drawing message: MailMessage) {
        self.message = message
        text = Self.text(for: message)
        Self.counter.add(onMain: Thread.isMainThread)
    }

    /// The line a row drawn now would show for `message` (nothing is drawn, nothing counted).
    public static func text(for message: MailMessage) -> String {
        (message.unread ? "● " : "  ") + message.subject + " — " + (message.contact?.name ?? message.sender)
    }

    /// How many rows have been drawn so far, by every screen.
    public static var drawCount: Int { counter.value }

    /// How many of them were drawn off the main thread, where no screen may draw.
    public static var drawnOffMain: Int { counter.offMain }

    /// Two rows are the same when they show the same message with the same text.
    public static func == (lhs: InboxRow, rhs: InboxRow) -> Bool {
        lhs.message === rhs.message && lhs.text == rhs.text
    }

    private static let counter = DrawCounter()
}

/// A counter any thread may bump.
private final class DrawCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var offMainCount = 0

    func add(onMain: Bool) {
        lock.withLock {
            count += 1
            if !onMain { offMainCount += 1 }
        }
    }

    var value: Int { lock.withLock { count } }
    var offMain: Int { lock.withLock { offMainCount } }
}
