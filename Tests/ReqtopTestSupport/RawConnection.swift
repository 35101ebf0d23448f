#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A plain TCP client for sending bytes curl would refuse to send (malformed requests).
public final class RawConnection {
    public let fd: Int32

    public init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Sends all bytes; returns false if the peer closed or reset the connection meanwhile.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until `until` returns true for the bytes so far, the peer closes, or `timeout` passes.
    public func read(timeout: Double = 5, until: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !until(received) {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// Reads one complete response that has a Content-Length (or ends at close), as text.
    public func readResponse(timeout: Double = 5) -> String {
        let bytes = read(timeout: timeout) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let headEnd = text.range(of: "\r\n\r\n") else { return false }
            let head = text[..<headEnd.lowerBound].lowercased()
            guard let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                  let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            else { return false }
            return bytes.count >= text.utf8.distance(from: text.utf8.startIndex, to: headEnd.upperBound) + length
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
