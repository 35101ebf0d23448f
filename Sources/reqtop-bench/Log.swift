import Foundation

/// Progress lines on stderr, so stdout carries only the table.
func log(_ message: String) {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
}
