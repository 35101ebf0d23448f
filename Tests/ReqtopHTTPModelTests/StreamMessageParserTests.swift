import Foundation
import ReqtopHTTPModel
import XCTest

/// Server-sent events (the WHATWG examples), NDJSON and JSON arrays, split into messages however the
/// bytes are cut into reads.
final class StreamMessageParserTests: XCTestCase {
    /// The messages of `body`, checked to be the same when it arrives whole, a byte at a time, and in
    /// pieces of every size up to 7.
    private func messages(_ body: String, _ format: StreamMessage.Format, keptBytes: Int = 1 << 20,
                          file: StaticString = #filePath, line: UInt = #line) -> [StreamMessage] {
        let bytes = Array(body.utf8)
        func parse(pieces size: Int) -> [StreamMessage] {
            var parser = StreamMessageParser(format: format, keptBytes: keptBytes)
            var found: [StreamMessage] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + size)
                bytes[start..<end].withUnsafeBytes { parser.feed($0) { found.append($0) } }
                start = end
            }
            parser.finish { found.append($0) }
            XCTAssertEqual(parser.count, found.count, file: file, line: line)
            return found
        }
        let whole = parse(pieces: max(1, bytes.count))
        for size in 1...7 { XCTAssertEqual(parse(pieces: size), whole, "read \(size) bytes at a time", file: file, line: line) }
        return whole
    }

    func testServerSentEventsAsTheWHATWGExamplesReadThem() {
        XCTAssertEqual(messages("data: YHOO\ndata: +2\ndata: 10\n\n", .sse).map(\.data), ["YHOO\n+2\n10"])

        let three = messages(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n", .sse)
        XCTAssertEqual(three.map(\.data), ["first event", "second event", " third event"], "one space after the colon goes")
        XCTAssertEqual(three.map(\.id), ["1", "", nil])
        XCTAssertEqual(three.map(\.isComplete), [true, true, false], "the body ended inside the third")
        XCTAssertEqual(three.map(\.index), [1, 2, 3])

        let empty = messages("data\n\ndata\ndata\n\ndata:", .sse)
        XCTAssertEqual(empty.map(\.data), ["", "\n", ""])
        XCTAssertEqual(empty.map(\.isComplete), [true, true, false])

        XCTAssertEqual(messages("data:test\n\ndata: test\n\n", .sse).map(\.data), ["test", "test"])
    }

    func testEventNamesRetryLineEndingsCommentsAndAByteOrderMark() {
        let named = messages("\u{FEFF}event: update\r\nretry: 3000\r\nid: 7\r\ndata: {\"a\":1}\r\n\r\n:keep-alive\n\nevent: x\n\nretry: 1x\ndata: b\r\rdata: c\rdata: d\r\r", .sse)
        XCTAssertEqual(named.count, 3, "a comment and an event without data dispatch nothing")
        XCTAssertEqual(named[0], StreamMessage(format: .sse, index: 1, event: "update", id: "7", retry: 3000, data: #"{"a":1}"#, size: 7))
        XCTAssertNil(named[1].event, "the event name of a dispatch without data is dropped")
        XCTAssertNil(named[1].retry, "retry that is not all digits is ignored")
        XCTAssertEqual(named.map(\.data), [#"{"a":1}"#, "b", "c\nd"], "CR alone ends lines too")
        XCTAssertEqual(messages("\u{FEFF}data: a\n\n", .sse).map(\.data), ["a"])
        XCTAssertEqual(messages("\u{FEFF}\u{FEFF}data: a\n\n", .sse).count, 0, "only the first byte order mark is skipped: the second starts a field name")
    }

    func testAHugeEventKeepsItsStartAndCountsTheRest() {
        let big = String(repeating: "x", count: 100_000)
        let found = messages("data: \(big)\ndata: y\n\ndata: small\n\n", .sse, keptBytes: 1000)
        XCTAssertEqual(found.count, 2)
        XCTAssertEqual(found[0].data, String(repeating: "x", count: 1000))
        XCTAssertEqual(found[0].size, 100_002)
        XCTAssertFalse(found[0].isWhole)
        XCTAssertEqual(found[1], StreamMessage(format: .sse, index: 2, data: "small", size: 5))
    }

    func testNDJSONLinesAreMessagesAndBlankLinesAreNot() {
        let found = messages("{\"a\":1}\n\n  \n{\"b\":2}\r\n{\"c\":3}", .ndjson)
        XCTAssertEqual(found.map(\.data), [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
        XCTAssertEqual(found.map(\.isComplete), [true, true, true], "a last line without its line feed is whole")
    }

    func testJSONArrayElementsAreMessagesAsTheyArrive() {
        let found = messages(" [ {\"a\": [1, 2]}, \"x,]\\\"\" , 3 ,null, [[]] ]trailing", .jsonArray)
        XCTAssertEqual(found.map(\.data), [#"{"a": [1, 2]}"#, #""x,]\"""#, "3", "null", "[[]]"])
        XCTAssertEqual(messages(#"{"a": [1, 2]}"#, .jsonArray), [], "a body that is not an array has no messages")
        XCTAssertEqual(messages("[]", .jsonArray), [])
        let cut = messages(#"[1, {"a":"#, .jsonArray)
        XCTAssertEqual(cut.map(\.data), ["1", #"{"a":"#])
        XCTAssertEqual(cut.map(\.isComplete), [true, false])
    }

    func testTheFormatComesFromTheContentType() {
        XCTAssertEqual(StreamMessage.format(contentType: "text/event-stream; charset=utf-8", hasContentLength: false), .sse)
        XCTAssertEqual(StreamMessage.format(contentType: "Text/Event-Stream", hasContentLength: true), .sse)
        XCTAssertEqual(StreamMessage.format(contentType: "application/x-ndjson", hasContentLength: false), .ndjson)
        XCTAssertEqual(StreamMessage.format(contentType: "application/jsonl", hasContentLength: true), .ndjson)
        XCTAssertEqual(StreamMessage.format(contentType: "application/json", hasContentLength: false), .jsonArray)
        XCTAssertEqual(StreamMessage.format(contentType: "application/problem+json", hasContentLength: false), .jsonArray)
        XCTAssertNil(StreamMessage.format(contentType: "application/json", hasContentLength: true), "a JSON body sent whole is one document")
        XCTAssertNil(StreamMessage.format(contentType: "text/plain", hasContentLength: false))
        XCTAssertNil(StreamMessage.format(contentType: nil, hasContentLength: false))
        XCTAssertEqual(StreamMessage.format(contentType: " \tApplication/NDJSON \t; charset=utf-8", hasContentLength: true), .ndjson,
                       "optional whitespace around the media type, any case")
        XCTAssertEqual(StreamMessage.format(contentType: "application/vnd.api+JSON", hasContentLength: false), .jsonArray)
        XCTAssertNil(StreamMessage.format(contentType: "+json", hasContentLength: true))
        XCTAssertNil(StreamMessage.format(contentType: "text/event-stream-x", hasContentLength: false))
        XCTAssertNil(StreamMessage.format(contentType: "", hasContentLength: false))
    }
}
