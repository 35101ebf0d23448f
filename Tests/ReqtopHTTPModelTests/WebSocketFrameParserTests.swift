import Foundation
import ReqtopHTTPModel
import XCTest

/// RFC 6455 frames, read however the bytes are cut: messages joined from fragments, control frames,
/// masks, the three length forms, and the violations a relay must notice.
final class WebSocketFrameParserTests: XCTestCase {
    /// One frame: FIN, opcode, the payload length in its shortest form, the mask when given.
    private func frame(_ opcode: UInt8, _ payload: [UInt8], final: Bool = true, mask: [UInt8]? = nil, rsv: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [(final ? 0x80 : 0) | rsv | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xFF) }
        }
        guard let mask else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    }

    private func messages(_ bytes: [UInt8], _ direction: WebSocketMessage.Direction, keptBytes: Int = 1 << 20,
                          file: StaticString = #filePath, line: UInt = #line) throws -> [WebSocketMessage] {
        func parse(pieces size: Int) throws -> [WebSocketMessage] {
            var parser = WebSocketFrameParser(direction: direction, keptBytes: keptBytes)
            var found: [WebSocketMessage] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + size)
                try bytes[start..<end].withUnsafeBytes { try parser.feed($0) { found.append($0) } }
                start = end
            }
            return found
        }
        let whole = try parse(pieces: max(1, bytes.count))
        for size in [1, 2, 3, 5, 7] { XCTAssertEqual(try parse(pieces: size), whole, "read \(size) at a time", file: file, line: line) }
        return whole
    }

    func testMessagesFragmentsAndControlFramesFromTheServer() throws {
        let bytes = frame(1, Array("hello".utf8)) + frame(2, [0, 1, 2], final: false) + frame(9, Array("ping".utf8))
            + frame(0, [3, 4], final: false) + frame(0, [5], final: true) + frame(8, [0x03, 0xE8] + Array("bye".utf8))
        let found = try messages(bytes, .receive)
        XCTAssertEqual(found.map(\.kind), ["text", "ping", "binary", "close"], "a ping may come between fragments")
        XCTAssertEqual(found[0].payload, Data("hello".utf8))
        XCTAssertEqual(found[2].payload, Data([0, 1, 2, 3, 4, 5]))
        XCTAssertEqual(found[2].size, 6)
        XCTAssertEqual(found[3].closeCode, 1000)
        XCTAssertTrue(found.allSatisfy { $0.direction == .receive })
    }

    func testClientFramesAreUnmaskedAndEveryLengthFormIsRead() throws {
        let medium = [UInt8](repeating: 0x61, count: 300), large = (0..<70_000).map { UInt8($0 & 0xFF) }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let bytes = frame(1, Array("hi".utf8), mask: mask) + frame(1, medium, mask: mask) + frame(2, large, mask: mask)
        let found = try messages(bytes, .send, keptBytes: 1000)
        XCTAssertEqual(found.map(\.size), [2, 300, 70_000])
        XCTAssertEqual(found[0].payload, Data("hi".utf8))
        XCTAssertEqual(found[1].payload, Data(medium))
        XCTAssertEqual(found[2].payload, Data(large.prefix(1000)), "the first 1000 bytes, unmasked")
        XCTAssertFalse(found[2].isWhole)
    }

    func testViolationsAreTypedErrors() {
        let cases: [([UInt8], WebSocketMessage.Direction, String)] = [
            (frame(1, [0x61]), .send, "not masked"),
            (frame(1, [0x61], mask: [1, 2, 3, 4]), .receive, "masked"),
            (frame(3, []), .receive, "reserved opcode 3"),
            (frame(1, [], rsv: 0x40), .receive, "reserved bits"),
            (frame(9, [], final: false), .receive, "fragmented"),
            (frame(9, [UInt8](repeating: 0, count: 126)), .receive, "over 125"),
            (frame(0, [1]), .receive, "continuation frame with no message"),
            (frame(1, [1], final: false) + frame(1, [2]), .receive, "before the fragmented one ended"),
            ([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1], .receive, "top bit"),
        ]
        for (bytes, direction, expected) in cases {
            var parser = WebSocketFrameParser(direction: direction)
            XCTAssertThrowsError(try bytes.withUnsafeBytes { try parser.feed($0) { _ in } }, expected) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should say \(expected)")
            }
        }
    }
}
