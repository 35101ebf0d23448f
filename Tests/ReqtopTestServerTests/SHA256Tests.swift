import Foundation
import ReqtopTestServer
import XCTest

/// The server's SHA-256 agrees with the system's `sha256sum` across padding boundaries.
final class SHA256Tests: ServerTestCase {
    func testDigestMatchesSha256sumAtBlockBoundaries() throws {
        for size in [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003] {
            let bytes = DeterministicBytes.prefix(size, seed: UInt64(size))
            XCTAssertEqual(SHA256.hex(of: bytes), try systemSHA256(Data(bytes)), "size \(size)")
        }
    }

    func testIncrementalUpdatesEqualOneShot() {
        let bytes = DeterministicBytes.prefix(5000, seed: 1)
        var hasher = SHA256()
        hasher.update(Array(bytes[0..<17]))
        hasher.update(Array(bytes[17..<4100]))
        hasher.update(Array(bytes[4100...]))
        XCTAssertEqual(hasher.finalizeHex(), SHA256.hex(of: bytes))
    }
}
