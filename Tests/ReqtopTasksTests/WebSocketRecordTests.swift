import Foundation
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopNetworkingTesting
import XCTest
@testable import ReqtopTasks

/// A WebSocket task as the proxy records it: its messages in the store, refused for replay, and in
/// HAR as Chrome writes one (`_resourceType` `websocket`, `_webSocketMessages`).
final class WebSocketRecordTests: XCTestCase {
    private func events() -> [TaskEvent] {
        let url = "ws://127.0.0.1:9000/chat"
        var head = CannedEvents.head(101, url)
        head.reason = "Switching Protocols"
        let frames = [WebSocketMessage(direction: .send, opcode: 1, payload: Data(#"{"token": "s3cr3t-value"}"#.utf8), size: 26),
                      WebSocketMessage(direction: .receive, opcode: 2, payload: Data([0, 1, 2]), size: 3),
                      WebSocketMessage(direction: .send, opcode: 8, payload: Data([0x03, 0xE8]) + Data("bye".utf8), size: 5, closeCode: 1000)]
        return [CannedEvents.created(1, "GET", url, name: "websocket"), CannedEvents.simple(1, .resumed, at: 100),
                CannedEvents.simple(1, .response(head), at: 100.1)]
            + frames.enumerated().map { CannedEvents.simple(1, .message(StreamMessage($0.element, index: $0.offset + 1)), at: 100.2 + Double($0.offset)) }
            + [CannedEvents.simple(1, .completed(TaskCompletion(response: head, body: nil, bytes: 40, timings: .unknown, redirects: [],
                                                                 serializer: "websocket", serializedValue: nil, serializationError: nil)), at: 104)]
    }

    func testItIsKeptAsChromeWritesAWebSocketAndIsNotReplayed() throws {
        let store = TaskStore()
        store.apply(events())
        let record = try XCTUnwrap(store.record(TaskID(rawValue: 1)))
        XCTAssertTrue(record.isWebSocket)
        XCTAssertEqual(record.messages?.count, 3)
        XCTAssertTrue(record.resendRefusal?.contains("is a WebSocket") ?? false, record.resendRefusal ?? "")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ws-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SessionExport.writeHAR(store.allRecords, to: path, secrets: SecretPolicy())
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let entry = try XCTUnwrap(((root["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        XCTAssertEqual(entry["_resourceType"] as? String, "websocket")
        XCTAssertNil(entry["_streamMessages"])
        let messages = try XCTUnwrap(entry["_webSocketMessages"] as? [[String: Any]])
        XCTAssertEqual(messages.map { $0["type"] as? String }, ["send", "receive", "send"])
        XCTAssertEqual(messages.map { $0["opcode"] as? Int }, [1, 2, 8])
        XCTAssertEqual(messages.map { $0["time"] as? Double }, [100.2, 101.2, 102.2])
        XCTAssertEqual(messages[0]["data"] as? String, #"{"token": "[redacted]"}"#, "a secret in a message is redacted as in a body")
        XCTAssertEqual(messages[1]["data"] as? String, "AAEC", "binary in base64")
        XCTAssertEqual(messages[2]["data"] as? String, "bye")
        XCTAssertEqual(messages[2]["closeCode"] as? Int, 1000)
    }
}
