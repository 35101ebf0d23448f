#if canImport(Glibc)
import Glibc
#endif

/// Writes a notice to the process's standard error (descriptor 2, unbuffered; a short write is
/// continued, an error other than an interruption ends it).
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
