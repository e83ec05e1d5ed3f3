import Foundation

/// Writing to standard output and error without buffering surprises between the two.
enum Console {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }

    /// `Error: message` on standard error, as the argument parser prints its errors.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }
}
