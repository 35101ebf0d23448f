import Foundation
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopProxy
import ReqtopTestSupport
import XCTest

/// HTTP/2 from clients: curl and httpx (PyPI, `http2=True`) inside an intercepted tunnel (ALPN h2),
/// and a raw `h2` (PyPI) client speaking cleartext prior knowledge to the proxy — bodies, cookies,
/// trailers, resets, credentials — and the hostile ones: a SETTINGS flood and a RST_STREAM storm.
final class HTTP2ProxyTests: ProxyTestCase {
    private func intercepting() throws -> (tls: URL, authority: CertificateAuthority) {
        let (tls, nginxCA) = try nginxTLS()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-h2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let authority = try CertificateAuthority.loadOrCreate(in: directory).authority
        try startProxy({ $0.interception = authority }, session: { $0.caFile = nginxCA })
        return (tls, authority)
    }

    /// Runs the raw client (`h2client` below) in `mode`; its JSON output.
    private func h2client(_ mode: String, _ arguments: [String] = []) throws -> [String: Any] {
        let result = try Subprocess.run(try python(), ["-c", Self.h2clientScript, mode, String(proxy.port), server.baseURL.host! + ":\(server.port)"]
                                        + arguments, timeout: 90)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any]
        return try XCTUnwrap(json, "h2client \(mode): \(result.stdoutText) \(result.stderrText)")
    }

    private func stream(_ json: [String: Any], _ id: Int) -> [String: Any] { json[String(id)] as? [String: Any] ?? [:] }

    // MARK: Real clients in an intercepted tunnel

    func testCurlMultiplexesOverHTTP2InsideTheInterceptedTunnel() throws {
        let (tls, authority) = try intercepting()
        let urls = ["files/1m.bin", "files/10k.bin", "files/100b.bin"].map { tls.appendingPathComponent($0).absoluteString }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("h2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: output) }
        var arguments = ["--http2", "--parallel", "--parallel-immediate", "--cacert", authority.certificatePath,
                         "-w", "%{http_version} %{http_code} %{size_download}\\n"]
        for (index, url) in urls.enumerated() { arguments += ["-o", output.appendingPathComponent("\(index)").path, url] }
        let result = try curl(arguments)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let lines = result.stdoutText.split(separator: "\n").map(String.init).sorted()
        XCTAssertEqual(lines, ["2 200 100", "2 200 10240", "2 200 1048576"], "HTTP/2 between curl and the proxy")
        let direct = try curl(["--cacert", try nginxTLS().ca, urls[0]], through: false)
        XCTAssertEqual(sha256(try Data(contentsOf: output.appendingPathComponent("0"))), sha256(direct.stdout), "bytes untouched")

        let tasks = try waitForTasks(3)
        XCTAssertEqual(tasks.count, 3, "one task per stream")
        var seen: [String] = []
        for task in tasks {
            guard case .created(let description)? = recorder.events(of: task).first?.kind,
                  case .completed(let completion)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("a completed task") }
            seen.append(description.url.absoluteString)
            XCTAssertEqual(description.request.headers.value(for: "user-agent")?.hasPrefix("curl/"), true,
                           "the client's fields, as HTTP/2 sends them (lower case)")
            XCTAssertFalse(description.request.headers.contains { $0.name.hasPrefix(":") }, "pseudo-header fields are the URL, not fields")
            XCTAssertEqual(completion.response.status, 200)
        }
        XCTAssertEqual(Set(seen), Set(urls))
    }

    /// curl 7.88 resets (STREAM_CLOSED) every stream whose body is complete but not ended: with many
    /// of them the proxy's rapid-reset limit would end the connection. Streams end with their last byte.
    func testManyParallelCurlTransfersAllEndCleanly() throws {
        let (tls, authority) = try intercepting()
        let url = tls.appendingPathComponent("files/100b.bin").absoluteString
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("h2-\(UUID().uuidString).curl")
        try String(repeating: "url = \"\(url)\"\noutput = \"/dev/null\"\n", count: 1500).write(to: config, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: config) }
        let result = try curl(["--http2", "--no-progress-meter", "--parallel", "--parallel-max", "8", "--cacert", authority.certificatePath,
                               "-K", config.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        try recorder.wait(timeout: 60) { events in events.filter(\.isTerminal).count >= 1500 }
        let ends = recorder.events.filter(\.isTerminal)
        XCTAssertEqual(ends.filter { $0.name == .completed }.count, 1500, "every transfer completed; none cancelled by a reset")
    }

    func testHTTPXWithHTTP2ThroughTheInterceptingProxy() throws {
        let (tls, authority) = try intercepting()
        let script = #"""
        import asyncio, json, ssl, sys, httpx
        async def main():
            context = ssl.create_default_context(cafile=sys.argv[2])
            async with httpx.AsyncClient(http2=True, proxy=sys.argv[1], verify=context) as client:
                responses = await asyncio.gather(*[client.get(sys.argv[3] + f"/files/10k.bin?i={i}") for i in range(5)])
                posted = await client.post(sys.argv[3] + "/seen", content=b"x" * 70000)
                print(json.dumps([[r.http_version, r.status_code, len(r.content)] for r in responses] + [[posted.http_version, posted.status_code, posted.text.strip()]]))
        asyncio.run(main())
        """#
        let result = try Subprocess.run(try python(), ["-c", script, proxyURL, authority.certificatePath, tls.absoluteString], timeout: 60,
                                        environment: ["NO_PROXY": ""])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [[Any]], result.stdoutText)
        XCTAssertEqual(rows.count, 6)
        for row in rows.prefix(5) {
            XCTAssertEqual(row[0] as? String, "HTTP/2")
            XCTAssertEqual(row[1] as? Int, 200)
            XCTAssertEqual(row[2] as? Int, 10240)
        }
        XCTAssertEqual(rows[5][0] as? String, "HTTP/2")
        XCTAssertEqual(rows[5][1] as? Int, 200)
        XCTAssertEqual(rows[5][2] as? String, "POST /seen HTTP/1.1|auth=|cookie=|type=|length=70000",
                       "a body over the stream's first window (64 KB) arrives whole")
        let tasks = try waitForTasks(6)
        let methods = tasks.compactMap { task -> String? in
            if case .created(let description)? = recorder.events(of: task).first?.kind { description.request.method } else { nil }
        }
        XCTAssertEqual(methods.sorted(), ["GET", "GET", "GET", "GET", "GET", "POST"])
    }

    // MARK: Cleartext prior knowledge, a raw client

    func testPriorKnowledgeStreamsCarryBodiesCookiesAndTrailersToTheHost() throws {
        let json = try h2client("exchange")
        let upload = stream(json, 1)
        XCTAssertEqual(upload["status"] as? Int, 200)
        let echoed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((upload["text"] as? String ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(echoed["method"] as? String, "POST")
        XCTAssertEqual(echoed["body_size"] as? Int, 300_000)
        XCTAssertEqual(echoed["sha256"] as? String, json["sent_sha256"] as? String, "the body in flow-controlled DATA frames, whole")
        let headers = echoed["headers"] as? [String: Any] ?? [:]
        XCTAssertEqual(headers["Cookie"] as? String, "a=1; b=2", "cookie crumbs joined for HTTP/1.1 (RFC 9113 §8.2.3)")

        let download = stream(json, 3)
        XCTAssertEqual(download["status"] as? Int, 200)
        XCTAssertEqual(download["length"] as? Int, 200_000)
        XCTAssertEqual(download["ended_with_data"] as? Bool, true,
                       "END_STREAM rides on the last DATA frame of a body of known length (curl resets a stream whose body is complete but not ended)")
        XCTAssertEqual(download["sha256"] as? String, sha256(try curl([server.url("/bytes/200000?seed=3").absoluteString], through: false).stdout))

        let withTrailers = stream(json, 5)
        XCTAssertEqual(withTrailers["status"] as? Int, 200)
        let tasks = try waitForTasks(3)
        let trailerTask = try XCTUnwrap(tasks.first { task in
            recorder.events(of: task).contains { if case .created(let d) = $0.kind { d.url.absoluteString.hasSuffix("/anything?trailers") } else { false } }
        })
        let logged = recorder.events(of: trailerTask).compactMap { event -> String? in
            if case .scriptLog(let log) = event.kind { log.text } else { nil }
        }
        XCTAssertEqual(logged.count, 1)
        XCTAssertTrue(logged.first?.contains("x-checksum") ?? false, "dropped trailer fields are said: \(logged)")
    }

    func testAStreamTheClientResetsCancelsItsTaskAndTheConnectionGoesOn() throws {
        let json = try h2client("reset")
        XCTAssertEqual(stream(json, 1)["status"] as? Int, 200)
        XCTAssertEqual(stream(json, 3)["status"] as? Int, 200, "the connection serves the next stream")
        let tasks = try waitForTasks(2)
        let first = try XCTUnwrap(tasks.first)
        guard case .cancelled? = recorder.terminalEvent(of: first)?.kind else {
            return XCTFail("the reset stream's task is cancelled: \(String(describing: recorder.terminalEvent(of: first)))")
        }
    }

    func testPriorKnowledgeNeedsTheProxyCredentials() throws {
        try startProxy { $0.credentials = ProxyCredentials("u:p") }
        let json = try h2client("auth")
        XCTAssertEqual(stream(json, 1)["status"] as? Int, 407)
        XCTAssertEqual(stream(json, 1)["proxy-authenticate"] as? String, "Basic realm=\"reqtop\", charset=\"UTF-8\"")
        XCTAssertEqual(stream(json, 3)["status"] as? Int, 200)
        let tasks = try waitForTasks(2)
        guard case .failed(let failure)? = recorder.terminalEvent(of: tasks[0])?.kind,
              case .completed(let completion)? = recorder.terminalEvent(of: tasks[1])?.kind else { return XCTFail("a refused and a sent task") }
        XCTAssertTrue(failure.error.message.contains("Proxy-Authorization"), failure.error.message)
        XCTAssertEqual(completion.response.status, 200)
        guard case .created(let sent)? = recorder.events(of: tasks[1]).first?.kind else { return XCTFail() }
        XCTAssertNil(sent.request.headers.value(for: "proxy-authorization"), "the credentials are the proxy's: not forwarded")
    }

    // MARK: Hostile clients

    func testASettingsFloodEndsThatConnectionOnly() throws {
        let json = try h2client("settings-flood")
        XCTAssertEqual(json["closed"] as? Bool, true, "the proxy ended the connection: \(json)")
        if let code = json["goaway"] as? Int { XCTAssertEqual(code, 0xb, "ENHANCE_YOUR_CALM") }
        let task = try XCTUnwrap(try waitForTasks(1).first)
        guard case .created(let description)? = recorder.events(of: task).first?.kind,
              case .failed(let failure)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("a failed task says why") }
        XCTAssertEqual(description.request.method, "PRI", "the connection's own task: HTTP/2's preface")
        XCTAssertTrue(failure.error.message.contains("Flooding was detected"), failure.error.message)
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.url("/get").absoluteString]).stdoutText, "200",
                       "other clients are still served")
    }

    func testARapidResetStormIsCutOffAndEveryStartedTaskEnds() throws {
        let json = try h2client("rst-storm")
        XCTAssertEqual(json["closed"] as? Bool, true, "the proxy ended the connection: \(json)")
        let code = try XCTUnwrap(json["goaway"] as? Int, "a GOAWAY says why: \(json)")
        XCTAssertNotEqual(code, 0, "not a graceful end (nghttp2's rate limit says INTERNAL_ERROR)")
        let sent = try XCTUnwrap(json["streams"] as? Int)
        recorder.flush()
        let created = Set(recorder.events.filter { $0.name == .created }.map(\.task))
        XCTAssertLessThan(created.count, sent, "streams after the limit made no task (\(created.count) tasks of \(sent) streams)")
        try recorder.waitForEnd(of: Array(created), timeout: 60)
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.url("/get").absoluteString]).stdoutText, "200")
    }

    /// A client of PyPI's `h2` over a plain socket, speaking prior knowledge to the proxy:
    /// `mode port authority`; prints JSON: per stream its status, length, sha256 and text.
    private static let h2clientScript = #"""
    import hashlib, json, socket, sys
    import h2.config, h2.connection, h2.events, h2.exceptions

    mode, port, authority = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(20)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())

    def head(method, path, extra=()):
        return [(":method", method), (":scheme", "http"), (":authority", authority), (":path", path)] + list(extra)

    streams, pending, result = {}, {}, {}

    def wait(done, on_event=lambda event: None):
        goaway = None
        while not done():
            for sid, body in list(pending.items()):   # bodies as the windows allow
                while body and conn.local_flow_control_window(sid) > 0:
                    n = min(len(body), conn.local_flow_control_window(sid), conn.max_outbound_frame_size)
                    conn.send_data(sid, body[:n])
                    body = body[n:]
                pending[sid] = body
                if not body:
                    del pending[sid]
                    trailers = streams[sid].get("trailers")
                    if trailers: conn.send_headers(sid, trailers, end_stream=True)
                    else: conn.end_stream(sid)
            sock.sendall(conn.data_to_send())
            data = sock.recv(65536)
            if not data: break
            for event in conn.receive_data(data):
                s = streams.setdefault(getattr(event, "stream_id", 0), {"body": bytearray()})
                if isinstance(event, h2.events.ResponseReceived):
                    fields = dict(event.headers)
                    s["status"] = int(fields[":status"])
                    s["fields"] = fields
                elif isinstance(event, h2.events.DataReceived):
                    s["body"] += event.data
                    s["ended_with_data"] = event.stream_ended is not None
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    s["ended"] = True
                elif isinstance(event, h2.events.StreamReset):
                    s["reset"] = event.error_code
                elif isinstance(event, h2.events.ConnectionTerminated):
                    goaway = event.error_code
                on_event(event)
            sock.sendall(conn.data_to_send())
        return goaway

    def report(extra={}):
        out = dict(extra)
        for sid, s in streams.items():
            if sid == 0: continue
            body = bytes(s["body"])
            out[str(sid)] = {"status": s.get("status"), "length": len(body), "sha256": hashlib.sha256(body).hexdigest(),
                             "text": body.decode("utf-8", "replace") if len(body) < 1000000 else "",
                             "proxy-authenticate": s.get("fields", {}).get("proxy-authenticate"),
                             "ended_with_data": s.get("ended_with_data", False)}
        print(json.dumps(out))

    def ended(*ids):
        return lambda: all(streams.get(i, {}).get("ended") or streams.get(i, {}).get("reset") is not None for i in ids)

    def frames(data):
        while len(data) >= 9:
            length = int.from_bytes(data[:3], "big")
            yield data[3], data[9:9 + length]
            data = data[9 + length:]

    def until_closed():
        """Reads what the proxy sends until it closes: whether it did, and its GOAWAY's code."""
        goaway, closed, received = None, False, b""
        try:
            while True:
                data = sock.recv(1 << 20)
                if not data: closed = True; break
                received += data
        except ConnectionResetError:
            closed = True
        except socket.timeout:
            pass
        for kind, payload in frames(received):
            if kind == 7: goaway = int.from_bytes(payload[4:8], "big")
        return closed, goaway

    if mode == "exchange":
        body = bytes(i % 251 for i in range(300000))
        conn.send_headers(1, head("POST", "/anything", [("cookie", "a=1"), ("cookie", "b=2"), ("content-length", str(len(body)))]))
        streams[1] = {"body": bytearray()}; pending[1] = body
        conn.send_headers(3, head("GET", "/bytes/200000?seed=3"), end_stream=True)
        streams[3] = {"body": bytearray()}
        conn.send_headers(5, head("POST", "/anything?trailers"))
        streams[5] = {"body": bytearray(), "trailers": [("x-checksum", "1")]}; pending[5] = b"abc"
        wait(ended(1, 3, 5))
        report({"sent_sha256": hashlib.sha256(body).hexdigest()})
    elif mode == "reset":
        conn.send_headers(1, head("GET", "/sse?count=100&interval=0.1"), end_stream=True)
        def cancel(event):
            if isinstance(event, h2.events.DataReceived) and event.stream_id == 1 and not streams[1].get("ended"):
                conn.reset_stream(1, 8)
                streams[1]["ended"] = True
                conn.send_headers(3, head("GET", "/get"), end_stream=True)
        wait(ended(1, 3), cancel)
        report()
    elif mode == "auth":
        conn.send_headers(1, head("GET", "/get"), end_stream=True)
        conn.send_headers(3, head("GET", "/get", [("proxy-authorization", "Basic dTpw")]), end_stream=True)
        wait(ended(1, 3))
        report()
    elif mode == "settings-flood":
        flood = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00" * 20000   # empty SETTINGS frames, each to be acknowledged
        sent = 0
        try:
            for _ in range(100):
                sock.sendall(flood)
                sent += 20000
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass
        closed, goaway = until_closed()
        print(json.dumps({"closed": closed, "goaway": goaway, "sent": sent}))
    elif mode == "rst-storm":
        count = 0
        try:
            for batch in range(40):
                for _ in range(100):
                    sid = conn.get_next_available_stream_id()
                    conn.send_headers(sid, head("GET", "/bytes/10"), end_stream=True)
                    conn.reset_stream(sid, 8)
                    count += 1
                sock.sendall(conn.data_to_send())
        except (BrokenPipeError, ConnectionResetError, h2.exceptions.ProtocolError):
            pass
        closed, goaway = until_closed()
        print(json.dumps({"closed": closed, "goaway": goaway, "streams": count}))
    """#
}
