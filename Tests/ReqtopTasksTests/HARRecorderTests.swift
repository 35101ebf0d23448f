import Foundation
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopSync
import XCTest
@testable import ReqtopTasks

final class HARRecorderTests: RunnerTestCase {
    /// A recorder that heard the whole run of `list`, stopped once it saw every task end.
    private func recorded(_ list: String) throws -> HARRecorder {
        let recorder = Protected<HARRecorder?>(nil)
        _ = try run(list) { runner in
            let har = HARRecorder(bus: runner.manager.bus, secrets: SecretPolicy())
            har.start()
            recorder.withLock { $0 = har }
        }
        let har = try XCTUnwrap(recorder.snapshot)
        har.stop() // waits until the recorder has seen every task end
        return har
    }

    func testRecordsOneEntryPerCompletedTaskWithRequestResponseAndTimings() throws {
        let har = try recorded("""
            GET {{base}}/get?x=1
            X-Test: yes

            ###
            POST {{base}}/post
            Content-Type: text/plain

            hello har

            ###
            GET http://127.0.0.1:1/refused
            """)
        let entries = try har.entries()
        XCTAssertEqual(entries.map(\.request.method), ["GET", "POST"], "the refused request has no response and no entry")
        XCTAssertEqual(entries[0].request.url, server.baseURL.absoluteString + "/get?x=1")
        XCTAssertTrue(entries[0].request.headers.contains(HTTPHeader(name: "X-Test", value: "yes")))
        XCTAssertEqual(entries[1].request.body, Data("hello har".utf8))
        XCTAssertEqual(entries.map(\.response.status), [200, 200])
        XCTAssertEqual(entries[0].response.mimeType, "application/json")
        XCTAssertGreaterThan(entries[0].response.bodySize, 0)
        XCTAssertEqual(entries[0].timings.ssl, -1, "plain HTTP has no TLS phase")
        XCTAssertLessThan(abs(entries[0].startedDateTime.timeIntervalSinceNow), 60)
    }

    /// A streamed response's messages go in `_streamMessages`, shaped as Chrome's `_webSocketMessages`
    /// (through the recorder's spill file and back), with secrets in their data redacted.
    func testStreamedMessagesAreKeptInStreamMessages() throws {
        let har = try recorded("GET {{base}}/sse?count=3&interval=0&event=update\n\n###\nGET {{base}}/get\n")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: url) }
        try har.write(to: url)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let entries = try XCTUnwrap((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 2)
        let messages = try XCTUnwrap(entries[0]["_streamMessages"] as? [[String: Any]])
        XCTAssertEqual(messages.map { $0["data"] as? String }, (1...3).map { #"{"n":\#($0),"of":3}"# })
        XCTAssertEqual(messages.map { $0["type"] as? String }, ["receive", "receive", "receive"])
        XCTAssertEqual(messages.map { $0["opcode"] as? Int }, [1, 1, 1])
        XCTAssertEqual(messages.map { $0["event"] as? String }, ["update", "update", "update"])
        XCTAssertEqual(messages.map { $0["id"] as? String }, ["1", "2", "3"])
        XCTAssertEqual(messages.map { $0["format"] as? String }, ["sse", "sse", "sse"])
        let times = messages.compactMap { $0["time"] as? Double }
        XCTAssertEqual(times.count, 3)
        XCTAssertLessThan(abs(times[0] - Date().timeIntervalSince1970), 60, "seconds since 1970, as Chrome writes them")
        XCTAssertNil(entries[1]["_streamMessages"], "a response that is not a stream has none")
    }

    func testWrittenFileIsHAR12WithEveryFinishedTask() throws {
        let har = try recorded("GET {{base}}/get\n\n###\nGET {{base}}/status/404\n")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: url) }
        try har.write(to: url)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let log = try XCTUnwrap(object?["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        let entries = try XCTUnwrap(log["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.compactMap { ($0["response"] as? [String: Any])?["status"] as? Int }, [200, 404])
        let reimported = try RequestListLoader.load(path: url.path)
        XCTAssertEqual(reimported.specs.map(\.url), [server.baseURL.absoluteString + "/get", server.baseURL.absoluteString + "/status/404"])
    }

    func testEachRequestSentIsAnEntryWithItsWireHeadAndTheRedirectsSetCookies() throws {
        let har = try recorded("""
            POST {{base}}/redirect-to?status_code=307&url=/cookies/set%3Fa%3D1%26b%3D2
            X-Dup: 1
            X-Dup: 2
            Content-Type: text/plain

            body
            """)
        let entries = try har.entries()
        XCTAssertEqual(entries.map(\.response.status), [307, 302, 200], "one entry per hop, as browsers export redirects")
        XCTAssertEqual(entries.map(\.request.method), ["POST", "POST", "GET"], "307 keeps the method, 302 turns a POST into a GET")
        XCTAssertEqual(entries[0].request.headers.map(\.name), ["Host", "User-Agent", "Accept", "Accept-Encoding", "X-Dup", "X-Dup",
                                                                "Content-Type", "Content-Length"], "the head as sent")
        XCTAssertGreaterThan(entries[0].request.headersSize, 0)
        XCTAssertGreaterThan(entries[0].response.headersSize, 0)
        XCTAssertEqual(entries[1].response.headers.values(for: "Set-Cookie").count, 2, "Set-Cookie fields stay separate")
        XCTAssertEqual(entries[0].request.body, Data("body".utf8))
        XCTAssertNil(entries[2].request.body, "the GET after a 302 went without the body")
        let cookie = entries[2].request.headers.value(for: "Cookie") ?? ""
        XCTAssertTrue(cookie.contains("a=1") && cookie.contains("b=2"), "the jar's cookies, as sent: \(entries[2].request.headers)")
    }

    /// Entries leave memory as their tasks end, yet a secret first sent by a later request is
    /// hidden where an earlier response echoed it: the HAR is written once every secret is known.
    func testASecretOfALaterRequestIsHiddenInAnEarlierEntry() throws {
        let har = try recorded("""
            POST {{base}}/anything
            Content-Type: text/plain

            sent before it was a secret: zq-late-token-8841

            ###
            GET {{base}}/get
            Authorization: Bearer zq-late-token-8841
            """)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(har.heldTaskCount, 0, "both tasks left memory as they ended")
        XCTAssertEqual(try har.entries().count, 2)
        try har.write(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertFalse(text.contains("zq-late-token-8841"), "the token stays hidden in the first entry's body and its echo")
        XCTAssertTrue(text.contains("sent before it was a secret: [redacted]"), text)
        XCTAssertTrue(text.contains("Bearer [redacted]"))
    }

    /// A cookie a redirect sets is a secret everywhere in the HAR — also in the URL that asked for it.
    func testACookieSetByARedirectIsHiddenEverywhere() throws {
        let har = try recorded("GET {{base}}/cookies/set?sid=zq-cookie-5531\n")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: url) }
        try har.write(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(try har.entries().map(\.response.status), [302, 200])
        XCTAssertFalse(text.contains("zq-cookie-5531"), text)
        XCTAssertTrue(text.contains("sid=[redacted]"), "the cookie's name stays")
    }

    /// The spill's records read back as the entries written, every field, in order; a record cut
    /// short is left for the next read.
    func testSpilledEntriesReadBackAsWritten() throws {
        let full = HARExportEntry(
            startedDateTime: Date(timeIntervalSince1970: 1_796_000_000.125),
            request: .init(method: "wHat", url: "http://h.test/ä?x=1", httpVersion: "HTTP/1.1",
                           headers: [HTTPHeader(name: "X-Dup", value: "1"), HTTPHeader(name: "X-Dup", value: "")],
                           body: Data([0, 255, 10, 13]), headersSize: 81),
            response: .init(status: 200, statusText: "OK", httpVersion: "HTTP/1.1", headers: [], bodySize: 3, mimeType: "text/plain",
                            body: Data("abc".utf8), headersSize: -1),
            timings: HARTimings(blocked: -1, dns: 0.5, connect: 1.25, ssl: -1, send: 0, wait: 3.5, receive: 1e-3),
            time: 6.25, serverIPAddress: "127.0.0.1", comment: "a comment", error: "timedOut: slow")
        let bare = HARExportEntry(startedDateTime: Date(timeIntervalSince1970: 0),
                                  request: .init(method: "GET", url: "http://h.test/", headers: []),
                                  response: .init(status: 0, headers: [], bodySize: 0, mimeType: ""), timings: HARTimings())
        var bytes: [UInt8] = []
        EntrySpillCodec.append(full, to: &bytes)
        EntrySpillCodec.append(bare, to: &bytes)
        var read: [HARExportEntry] = []
        let used = try bytes.withUnsafeBytes { try EntrySpillCodec.decode($0) { read.append($0) } }
        XCTAssertEqual(read, [full, bare])
        XCTAssertEqual(used, bytes.count)
        read = []
        let partial = try bytes.dropLast(3).withUnsafeBytes { try EntrySpillCodec.decode($0) { read.append($0) } }
        XCTAssertEqual(read, [full], "the cut record waits for the rest")
        XCTAssertLessThan(partial, bytes.count - 3)
    }

    func testPhaseTimingsMapToHARWithSSLIncludedInConnect() {
        let timings = SessionExport.harTimings(PhaseTimings(dns: 2, connect: 3, tls: 4, send: 1, wait: 10, receive: 5, total: 25))
        XCTAssertEqual(timings, HARTimings(blocked: -1, dns: 2, connect: 7, ssl: 4, send: 1, wait: 10, receive: 5))
        let reused = SessionExport.harTimings(PhaseTimings(dns: -1, connect: -1, tls: -1, send: 0, wait: 3, receive: 1, total: 4))
        XCTAssertEqual(reused, HARTimings(blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 3, receive: 1))
    }
}
