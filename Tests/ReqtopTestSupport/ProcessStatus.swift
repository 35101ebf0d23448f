import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figures of a running process from `/proc/PID/status` (kB fields in bytes).
public struct ProcessStatus {
    public let residentBytes: Int
    /// The peak resident set size so far (VmHWM).
    public let peakResidentBytes: Int
    public let threads: Int

    public init?(pid: Int32) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
        }
        residentBytes = field("VmRSS") * 1024
        peakResidentBytes = field("VmHWM") * 1024
        threads = field("Threads")
    }
}

/// A loopback TCP port nobody listens on right now (bound and released: another process could take it, rarely).
public func unusedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            _ = bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Waits until something accepts connections on 127.0.0.1:`port` (a server starting up), up to `timeout` seconds.
public func waitForListener(port: Int, timeout: Double = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if (try? RawConnection(port: UInt16(port))) != nil { return true }
        usleep(20_000) // a readiness probe: nothing to await but the port itself
    }
    return false
}
