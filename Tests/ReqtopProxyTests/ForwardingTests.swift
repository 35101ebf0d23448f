import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopProxy
import ReqtopSync
import ReqtopTestSupport
import XCTest

/// Plain HTTP through the proxy: bodies byte for byte, heads as received, connection handling,
/// request bodies, errors, and the task each request becomes.
final class ForwardingTests: ProxyTestCase {
    func testBodiesArriveByteForByteAndEachRequestIsATask() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cases = [("small", "/bytes/1000?seed=3", 1000), ("counted", "/bytes/3000000?seed=4", 3_000_000),
                     ("chunked", "/stream-bytes/2500000?chunk_size=7000&seed=5", 2_500_000)]
        for (name, path, size) in cases {
            let proxied = scratch.appendingPathComponent("\(name).proxied").path
            let direct = scratch.appendingPathComponent("\(name).direct").path
            XCTAssertEqual(try curl(["-o", proxied, server.url(path).absoluteString]).status, 0)
            XCTAssertEqual(try curl(["-o", direct, server.url(path).absoluteString], through: false).status, 0)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: proxied))
            XCTAssertEqual(bytes.count, size, name)
            XCTAssertEqual(sha256(bytes), sha256(try Data(contentsOf: URL(fileURLWithPath: direct))), "\(name): byte for byte")
        }
        let tasks = try waitForTasks(3)
        XCTAssertEqual(tasks.count, 3)
        for (task, (name, path, size)) in zip(tasks, cases) {
            XCTAssertEqual(Array(recorder.names(of: task).prefix(4)), [.created, .resumed, .request, .response], name)
            guard case .completed(let completion)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("\(name) completed") }
            XCTAssertEqual(completion.bytes, Int64(size), name)
            XCTAssertEqual(completion.response.status, 200)
            XCTAssertEqual(completion.body?.count, Int64(min(size, 1 << 20)), "\(name): the first MB is kept for the inspector")
            guard case .requestSent(let head)? = recorder.events(of: task).first(where: { $0.name == .request })?.kind else {
                return XCTFail("\(name): the request head as sent")
            }
            XCTAssertEqual(head.target, path)
        }
    }

    func testPythonRequestsHttpxAndURLSessionWorkThroughTheProxy() throws {
        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: python) {
            let script = """
                import sys, requests, httpx
                print(requests.get(sys.argv[1] + '/get?client=requests').status_code)
                print(httpx.get(sys.argv[1] + '/get?client=httpx').status_code)
                """
            let result = try Subprocess.run(python, ["-c", script, server.baseURL.absoluteString], timeout: 60,
                                            environment: ["HTTP_PROXY": proxyURL, "http_proxy": proxyURL, "NO_PROXY": "", "no_proxy": ""])
            XCTAssertEqual(result.stdoutText, "200\n200\n", result.stderrText)
        } else if TestEnvironment.isCI {
            XCTFail("the test venv (.venv) is missing: make test creates it")
        }
        // Swift's URLSession (FoundationNetworking: libcurl, which reads http_proxy from the environment).
        setenv("http_proxy", proxyURL, 1)
        defer { unsetenv("http_proxy") }
        let session = URLSession(configuration: .ephemeral)
        let done = expectation(description: "URLSession")
        let status = Protected(0)
        session.dataTask(with: server.url("/get?client=urlsession")) { _, response, _ in
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode ?? -1 }
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(status.snapshot, 200)
        let targets = try waitForTasks(FileManager.default.isExecutableFile(atPath: python) ? 3 : 1).compactMap { task -> String? in
            guard case .created(let description)? = recorder.events(of: task).first?.kind else { return nil }
            return description.url.query
        }
        XCTAssertTrue(targets.contains("client=urlsession"), "URLSession went through the proxy: \(targets)")
        if FileManager.default.isExecutableFile(atPath: python) {
            XCTAssertTrue(targets.contains("client=requests") && targets.contains("client=httpx"), "\(targets)")
        }
    }

    func testTheRequestHeadGoesOnAsReceivedLessTheHopByHopFields() throws {
        let connection = try rawConnection()
        connection.send("GET \(server.url("/echo/head?q=1").absoluteString) HTTP/1.1\r\n"
                        + "Host: \(server.host):\(server.port)\r\nX-b: 1\r\nx-A: two\r\nConnection: keep-alive, X-Hop\r\n"
                        + "X-Hop: gone\r\nKeep-Alive: timeout=5\r\nProxy-Connection: keep-alive\r\nProxy-Authorization: Basic eDp5\r\n"
                        + "TE: trailers\r\nX-b: 3\r\nAccept-Encoding: gzip\r\n\r\n")
        let response = connection.readResponse()
        let body = response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        let lines = body.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\r")) }
        XCTAssertEqual(lines, ["GET /echo/head?q=1 HTTP/1.1", "Host: \(server.host):\(server.port)", "X-b: 1", "x-A: two", "X-b: 3",
                               "Accept-Encoding: gzip", "body: 0 bytes"],
                       "order, case and duplicates kept; Connection, the fields it names, Keep-Alive, Proxy-*, TE removed; nothing added\n\(response)")
        let task = try XCTUnwrap(try waitForTasks(1).first)
        guard case .requestSent(let head)? = recorder.events(of: task).first(where: { $0.name == .request })?.kind else {
            return XCTFail("a request event")
        }
        XCTAssertEqual(head.headers.map(\.name), ["Host", "X-b", "x-A", "X-b", "Accept-Encoding"], "the task shows what went on the wire")
    }

    func testViaIsAddedOnlyWhenAsked() throws {
        XCTAssertFalse(try curl(["-i", server.url("/echo/head").absoluteString]).stdoutText.contains("Via"))
        try startProxy { $0.via = "reqtop" }
        let text = try curl(["-i", server.url("/echo/head").absoluteString]).stdoutText
        XCTAssertTrue(text.contains("Via: 1.1 reqtop"), "in the request the server saw\n\(text)")
        XCTAssertTrue(text.contains("Via: 1.1 reqtop\r\n"), text)
    }

    func testKeepAliveAndPipelinedRequestsShareOneClientConnection() throws {
        let connection = try rawConnection()
        let get = "GET \(server.url("/bytes/10?seed=1").absoluteString) HTTP/1.1\r\nHost: x\r\n\r\n"
        connection.send(get + get) // pipelined: the second answered after the first
        // Both responses whole: two heads, each followed by its 10-byte body.
        let both = connection.read(timeout: 10) { bytes in
            let parts = String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200")
            guard parts.count == 3, let bodyStart = parts[2].range(of: "\r\n\r\n") else { return false }
            return parts[2][bodyStart.upperBound...].utf8.count >= 10
        }
        XCTAssertEqual(String(decoding: both, as: UTF8.self).components(separatedBy: "HTTP/1.1 200").count, 3)
        connection.send(get)
        XCTAssertTrue(connection.readResponse().hasPrefix("HTTP/1.1 200"), "the connection stays open for more")
        XCTAssertEqual(try waitForTasks(3).count, 3)
    }

    func testAnHTTP10ClientGetsAChunkedBodyDelimitedByClose() throws {
        let connection = try rawConnection()
        connection.send("GET \(server.url("/stream-bytes/5000?chunk_size=999&seed=2").absoluteString) HTTP/1.0\r\n\r\n")
        let bytes = connection.read(timeout: 10) // to the close
        let text = String(decoding: bytes, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n")[0]
        XCTAssertTrue(head.contains("Connection: close"), head)
        XCTAssertFalse(head.lowercased().contains("transfer-encoding"), "HTTP/1.0 has no chunked coding\n\(head)")
        XCTAssertEqual(bytes.count - head.utf8.count - 4, 5000, "the whole body, then the close")
    }

    func testExpect100ContinueIsAnsweredWhenTheServerIsReadyForTheBody() throws {
        let connection = try rawConnection()
        connection.send("POST \(server.url("/post").absoluteString) HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n"
                        + "Expect: 100-continue\r\n\r\n")
        XCTAssertTrue(connection.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 100 Continue\r\n\r\n"), "nothing of the body was sent yet")
        connection.send("hello world")
        let response = connection.readResponse()
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200"), response)
        XCTAssertTrue(response.contains(sha256(Data("hello world".utf8))), response)
    }

    func testRequestBodiesStreamUpstreamCountedAndChunked() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var generator = SystemRandomNumberGenerator()
        let body = Data((0..<1_500_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try body.write(to: file)
        for extra in [[], ["-H", "Transfer-Encoding: chunked"]] {
            let result = try curl(["--data-binary", "@\(file.path)", "-H", "Content-Type: application/octet-stream"] + extra
                                  + [server.url("/post").absoluteString])
            XCTAssertEqual(result.status, 0, result.stderrText)
            let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
            XCTAssertEqual(json?["sha256"] as? String, sha256(body), "the body arrived whole \(extra)")
            XCTAssertEqual(json?["body_size"] as? Int, body.count)
        }
        // Each task records what it sent: the whole size, and the first MB (the proxy's keptBodyBytes).
        let tasks = try waitForTasks(2)
        for task in tasks {
            guard case .completed(let completion)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("\(task) completes") }
            XCTAssertEqual(completion.sentBody?.size, Int64(body.count), "\(task)")
            XCTAssertEqual(completion.sentBody?.kept, body.prefix(1 << 20), "\(task): the first MB, byte for byte")
            XCTAssertEqual(completion.sentBody?.isWhole, false)
        }

        // A body within the limit is recorded whole, counted or chunked — through the event line the journal writes, too.
        let small = Data("name=reqtop&chunked=maybe".utf8)
        try small.write(to: file)
        for extra in [[], ["-H", "Transfer-Encoding: chunked"]] {
            XCTAssertEqual(try curl(["-o", "/dev/null", "--data-binary", "@\(file.path)"] + extra + [server.url("/post").absoluteString]).status, 0)
        }
        for task in try waitForTasks(4).suffix(2) {
            let event = try XCTUnwrap(recorder.terminalEvent(of: task))
            guard case .completed(let completion) = event.kind else { return XCTFail("\(task) completes") }
            XCTAssertEqual(completion.sentBody, StreamedRequestBody(kept: small, size: Int64(small.count)))
            let line = EventLine(event, detail: .full(bodyLimit: 1 << 20, keptBy: "journal"), redaction: nil)
            XCTAssertEqual(line.requestBody, small)
            XCTAssertEqual(line.requestBytes, Int64(small.count))
        }
        // A request without a body records none.
        XCTAssertEqual(try curl(["-o", "/dev/null", server.url("/get").absoluteString]).status, 0)
        guard case .completed(let plain)? = recorder.terminalEvent(of: try waitForTasks(5)[4])?.kind else { return XCTFail("completes") }
        XCTAssertNil(plain.sentBody)
    }

    func testMalformedRequestsGet400AndTheProxyKeepsServing() throws {
        let cases: [(String, String)] = [
            ("GARBAGE\r\n\r\n", "400"),
            ("GET http://x/ HTTP/1.1\r\nHost x\r\n\r\n", "400"),
            ("GET /relative HTTP/1.1\r\nHost: x\r\n\r\n", "400"),
            ("GET http://x/ HTTP/2.0\r\n\r\n", "505"),
            ("POST http://x/ HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", "400"),
            ("POST http://x/ HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", "400"),
            ("GET http://x/ HTTP/1.1\r\nX: " + String(repeating: "a", count: 70_000) + "\r\n\r\n", "431"),
            ("GET ftp://x/ HTTP/1.1\r\n\r\n", "400"),
            ("CONNECT nohost HTTP/1.1\r\n\r\n", "400"),
            ("CONNECT ?x:443 HTTP/1.1\r\n\r\n", "400"), // crashed: no URL could be made of it
            ("CONNECT #x:443 HTTP/1.1\r\n\r\n", "400"),
            ("POST http://x/ HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "501"),
        ]
        for (request, status) in cases {
            let connection = try rawConnection()
            connection.send(request)
            let response = connection.readResponse()
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 \(status) "), "\(request.prefix(60)) → \(response.prefix(200))")
            XCTAssertTrue(response.contains("reqtop proxy: "), "says why")
        }
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.url("/get").absoluteString]).stdoutText, "200",
                       "still serving")
        // A request with a URL but malformed framing is shown as a task that failed, saying why; none is sent on.
        let tasks = try waitForTasks(4)
        XCTAssertEqual(tasks.count, 4)
        let failures = tasks.compactMap { task -> TransferError? in
            if case .failed(let failure)? = recorder.terminalEvent(of: task)?.kind { return failure.error } else { return nil }
        }
        XCTAssertEqual(failures.map(\.code), [.protocolError, .protocolError, .protocolError], "\(failures)")
        XCTAssertTrue(failures[0].message.contains("both Transfer-Encoding and Content-Length"), failures[0].message)
        XCTAssertEqual(server.requestLog.count, 1, "only curl's request reached the server")
    }

    /// Every malformed chunked framing of a request body — a chunk size with a sign, too large, too
    /// long, followed by junk, an extension without a name, a trailer that is not a field — gets
    /// `400 Bad Request` with a one-line reason; the task fails with a protocol error that says
    /// what was wrong; when the first chunk size is the bad one, nothing reaches the upstream.
    func testMalformedChunkedBodiesGet400AndAFailedTaskSayingWhy() throws {
        let cases: [(body: String, reason: String, firstChunkBad: Bool)] = [
            ("-1\r\nA", "chunk size is not hexadecimal: '-1'", true),
            // The client goes on sending after the bad line: its bytes are read and dropped, so the 400 is not lost to a reset.
            ("zz\r\n" + String(repeating: "x", count: 300_000), "chunk size is not hexadecimal: 'zz'", true),
            ("7fffffffffffffff\r\n", "chunk size '7fffffffffffffff' is too large", true),
            ("8000000000000000\r\n", "chunk size '8000000000000000' is too large", true),
            ("10000000000000000\r\n", "is too large (more than 15 hex digits)", true),
            ("5 junk\r\nhello\r\n0\r\n\r\n", "unexpected 'junk' after chunk size '5'", true),
            ("5;=x\r\nhello\r\n0\r\n\r\n", "chunk extension without a name", true),
            ("5\r\nhello\r\n0\r\nnot a field\r\n\r\n", "trailer line is not 'Name: value'", false),
            ("5\r\nhelloXX\r\n0\r\n\r\n", "chunk data longer than its chunk size", false),
        ]
        for (index, (body, reason, firstChunkBad)) in cases.enumerated() {
            let before = server.requestLog.count
            let connection = try rawConnection()
            connection.send("POST \(server.url("/post").absoluteString) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
            let response = connection.readResponse()
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(body.debugDescription) → \(response.prefix(200))")
            XCTAssertTrue(response.contains("reqtop proxy: malformed chunked body: "), response)
            XCTAssertTrue(response.contains(reason), "\(reason) in \(response)")
            let tasks = try waitForTasks(index + 1)
            guard case .failed(let failure)? = recorder.terminalEvent(of: tasks[index])?.kind else {
                XCTFail("\(body.debugDescription): the task fails, not \(String(describing: recorder.terminalEvent(of: tasks[index])?.name))")
                continue
            }
            XCTAssertEqual(failure.error.code, .protocolError)
            XCTAssertTrue(failure.error.message.contains(reason), failure.error.message)
            if firstChunkBad { XCTAssertEqual(server.requestLog.count, before, "\(body.debugDescription): nothing was sent upstream") }
        }
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", server.url("/get").absoluteString]).stdoutText, "200",
                       "the proxy is still there")
        // And a well-formed chunked body with extensions and a trailer goes through whole.
        let connection = try rawConnection()
        connection.send("POST \(server.url("/post").absoluteString) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5;name=value;q=\"a b\"\r\nhello\r\n6 ; x\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n")
        let response = connection.readResponse()
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 "), String(response.prefix(300)))
        XCTAssertEqual(server.requestLog.last?.bodySHA256, sha256(Data("hello world".utf8)), "the body went through whole")
    }

    func testAClientThatHalfClosesAfterALargeBodyGetsItsResponse() throws {
        let body = [UInt8]((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let connection = try rawConnection()
        connection.send("POST \(server.url("/post").absoluteString) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n"
                        + "Content-Type: application/octet-stream\r\n\r\n")
        connection.send(body)
        shutdown(connection.fd, Int32(SHUT_WR)) // done sending; still reading
        let response = connection.readResponse(timeout: 30)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200"), String(response.prefix(300)))
        XCTAssertTrue(response.contains(sha256(Data(body))), "the whole body went on, not a cancelled request")
    }

    func testAnHTTP10ClientGetsNo100Continue() throws {
        let connection = try rawConnection()
        connection.send("POST \(server.url("/post").absoluteString) HTTP/1.0\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello")
        let response = String(decoding: connection.read(timeout: 10), as: UTF8.self)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200"), "no interim response for HTTP/1.0 (RFC 9110 §10.1.1)\n\(response.prefix(200))")
    }

    func testAnUnreachableHostIs502AndAFailedTask() throws {
        let result = try curl(["-i", "http://127.0.0.1:1/nothing"])
        XCTAssertTrue(result.stdoutText.hasPrefix("HTTP/1.1 502 Bad Gateway"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("cannotConnect"), result.stdoutText)
        let task = try XCTUnwrap(try waitForTasks(1).first)
        guard case .failed(let failure)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("a failed task") }
        XCTAssertEqual(failure.error.code, .cannotConnect)
    }

    func testSuspendingAProxiedTaskPausesTheClientAndResumingFinishesIt() throws {
        let size = 40_000_000
        let connection = try rawConnection()
        connection.send("GET \(server.url("/bytes/\(size)?seed=9").absoluteString) HTTP/1.1\r\nHost: x\r\n\r\n")
        var received = connection.read(timeout: 10) { $0.count > 100_000 }
        let task = try XCTUnwrap(try waitForTasks(1, toEnd: false).first)
        try XCTUnwrap(manager.task(withID: task)).suspend()
        try recorder.wait { $0.contains { $0.task == task && $0.name == .suspended } }
        // While suspended, at most what was already in buffers (the proxy's 1 MB each way, the sockets') arrives.
        received += connection.read(timeout: 1)
        let duringSuspension = received.count
        XCTAssertLessThan(duringSuspension, size / 2, "the transfer stopped")
        received += connection.read(timeout: 0.5)
        XCTAssertEqual(received.count, duringSuspension, "nothing more arrives while suspended")
        try XCTUnwrap(manager.task(withID: task)).resume()
        let headLength = try XCTUnwrap(received.firstRange(of: Array("\r\n\r\n".utf8))).upperBound
        received += connection.read(timeout: 30) { [count = received.count] more in count + more.count >= headLength + size }
        XCTAssertEqual(received.count, headLength + size, "the whole body after resuming")
        try recorder.waitForEnd(of: [task])
        guard case .completed(let completion)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("completed after resume") }
        XCTAssertEqual(completion.bytes, Int64(size))
    }

    func testAClientThatLeavesCancelsItsTask() throws {
        var connection: RawConnection? = try rawConnection()
        connection?.send("GET \(server.url("/fault/drip-forever").absoluteString) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(connection?.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200") ?? false)
        connection = nil // closes the socket
        let task = try XCTUnwrap(proxiedTasks().first)
        try recorder.waitForEnd(of: [task])
        XCTAssertEqual(recorder.terminalEvent(of: task)?.name, .cancelled)
    }
}
