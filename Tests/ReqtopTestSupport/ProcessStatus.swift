import Foundation
import ReqtopTestServer
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
public func unusedLoopbackPort() -> Int { LoopbackPort.unused() }

/// Waits until something accepts connections on 127.0.0.1:`port` (a server starting up), up to `timeout` seconds.
public func waitForListener(port: Int, timeout: Double = 20) -> Bool {
    eventually(timeout: timeout, every: 0.02) { LoopbackPort.accepts(port) } // a readiness probe: nothing to await but the port itself
}
