import Foundation
import XCTest

/// nginx as started by scripts/with-test-servers.sh, for what the embedded server cannot do (HTTPS,
/// multi-hundred-megabyte files). In CI its absence is a failure, elsewhere a skip that says `why`.
func requireServer(_ url: URL?, _ name: String, why: String) throws -> URL {
    if let url { return url }
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("\(name) is not running: run the tests through `make test`")
    }
    throw XCTSkip("\(name) is not running (use `make test`, which starts it); needed because \(why)")
}

/// Resident set size of this process in bytes, from /proc.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    let kb = Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return kb * 1024
}
