import Foundation

/// Progress lines on stderr, so stdout carries only the table. What stdout holds is flushed first:
/// with both sent to one file, a progress line no longer lands inside a table row.
func log(_ message: String) {
    fflush(nil) // (every C stream: stdout, without naming the global)
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
}
