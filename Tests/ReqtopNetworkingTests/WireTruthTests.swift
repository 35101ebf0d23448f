import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopNetworking
import ReqtopNetworkingFoundation
import ReqtopNetworkingTesting
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// What goes on the wire is what the request says, and what the task reports as sent is what the
/// server received — checked against the embedded server's `/echo/head`, which logs each head
/// exactly as received.
final class WireTruthTests: EmbeddedServerTestCase {

    private func url(_ pathAndQuery: String) -> HTTPURL { HTTPURL(string: server.url(pathAndQuery).absoluteString)! }

    private func send(_ request: HTTPRequest, configuration: SessionConfiguration = SessionConfiguration()) async -> TaskResponse<Data> {
        await SessionManager(configuration: configuration).data(for: request)
    }

    /// The last head the server received, request line first.
    private var received: [String] { server.requestLog.last?.rawHead ?? [] }

    func testHeadersGoOutInListOrderWithDuplicatesAndCaseAsWritten() async throws {
        let headers = [HTTPHeader(name: "Z-Last", value: "1"), HTTPHeader(name: "X-Dup", value: "a"),
                       HTTPHeader(name: "A-First", value: "1"), HTTPHeader(name: "x-dup", value: "b"), HTTPHeader(name: "X-Empty", value: "")]
        let response = await send(HTTPRequest(method: "GET", url: url("/echo/head"), headers: headers))
        XCTAssertEqual(response.head?.status, 200)
        let custom = received.dropFirst().filter { !["Host:", "User-Agent:", "Accept:", "Accept-Encoding:"].contains(where: $0.hasPrefix) }
        XCTAssertEqual(Array(custom), ["Z-Last: 1", "X-Dup: a", "A-First: 1", "x-dup: b", "X-Empty:"])
    }

    func testTheMethodGoesOutExactlyAsWritten() async throws {
        for method in ["wHat", "PROPFIND", "QUERY", "MKCOL", "get"] {
            _ = await send(HTTPRequest(method: method, url: url("/echo/head")))
            XCTAssertEqual(received.first, "\(method) /echo/head HTTP/1.1")
        }
    }

    func testPercentEscapesAreNeverReencoded() async throws {
        let request = HTTPRequest(url: HTTPURL(string: server.url("/echo/head").absoluteString + "?a=%3A&b=[1]&c=|x|&d=%zz")!)
        _ = await send(request)
        XCTAssertEqual(received.first, "GET /echo/head?a=%3A&b=[1]&c=|x|&d=%zz HTTP/1.1")
        // Only what cannot be in a request target is escaped: space, controls, non-ASCII.
        _ = await send(HTTPRequest(url: HTTPURL(string: server.url("/echo/head").absoluteString + "?q=a b&u=ü")!))
        XCTAssertEqual(received.first, "GET /echo/head?q=a%20b&u=%C3%BC HTTP/1.1")
    }

    func testNoHeaderIsInventedForABody() async throws {
        // libcurl would add Content-Type: application/x-www-form-urlencoded, and Expect: 100-continue past 1 MB.
        let big = Data(repeating: 0x61, count: 2 << 20)
        var plain = SessionConfiguration()
        plain.compression = false
        for body in [Data("hello".utf8), big] {
            _ = await send(HTTPRequest(method: "POST", url: url("/echo/head"), body: .data(body)), configuration: plain)
            XCTAssertEqual(received.dropFirst().map { $0.split(separator: ":")[0] }, ["Host", "User-Agent", "Accept", "Content-Length"])
            XCTAssertEqual(server.requestLog.last?.bodySize, body.count)
        }
        // A Content-Type the request has is sent as written.
        _ = await send(HTTPRequest(method: "PUT", url: url("/echo/head"), headers: [HTTPHeader(name: "content-type", value: "text/x-mine")],
                                   body: .data(Data("x".utf8))))
        XCTAssertTrue(received.contains("content-type: text/x-mine"), "\(received)")
    }

    func testTheReportedHeadIsWhatTheServerReceived() async throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let request = HTTPRequest(method: "PATCH", url: url("/echo/head?x=1"),
                                  headers: [HTTPHeader(name: "X-One", value: "1"), HTTPHeader(name: "X-One", value: "2")],
                                  body: .data(Data("{}".utf8)))
        let response = await manager.data(for: request)
        let sent = try XCTUnwrap(response.sentHeads.first)
        XCTAssertEqual(sent.lines, received, "the request event carries the head exactly as received")
        XCTAssertEqual(sent.size, received.reduce(0) { $0 + $1.utf8.count + 2 } + 2, "headersSize counts every CRLF")
        try recorder.waitForEnd(of: [response.task])
        let events = recorder.events(of: response.task)
        XCTAssertEqual(events.map(\.name), [.created, .resumed, .request, .progress, .response, .progress, .completed])
        guard case .requestSent(let head) = events[2].kind else { return XCTFail("expected the request event") }
        XCTAssertEqual(head, sent)
    }

    func testDryRunHeadersMatchTheWire() async throws {
        var configuration = SessionConfiguration()
        configuration.compression = true
        let requests = [
            HTTPRequest(method: "POST", url: url("/echo/head"), headers: [HTTPHeader(name: "X-A", value: "1")], body: .data(Data("abc".utf8))),
            HTTPRequest(method: "GET", url: url("/echo/head"), headers: [HTTPHeader(name: "Accept", value: "text/plain"),
                                                                          HTTPHeader(name: "Host", value: "vhost.test")]),
            HTTPRequest(method: "DELETE", url: HTTPURL(string: "http://user:p%40ss@127.0.0.1:\(server.port)/echo/head")!),
        ]
        for request in requests {
            _ = await send(request, configuration: configuration)
            let predicted = ClientHeaders.onTheWire(request, configuration: configuration).map(\.header.description)
            XCTAssertEqual(predicted, Array(received.dropFirst()), "\(request.method) \(request.url)")
        }
    }

    func testABodyOfUnknownSizeIsSentChunkedWhereDryRunSaysSo() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-fifo-\(UUID().uuidString)").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let writer = Thread { try? Data("streamed".utf8).write(to: URL(fileURLWithPath: fifo)) }
        writer.start()
        let request = HTTPRequest(method: "PUT", url: url("/echo/head"), headers: [HTTPHeader(name: "X-A", value: "1")])
        let manager = SessionManager()
        let response: TaskResponse<Data> = try awaitCompletion { done in
            try? manager.uploadTask(with: request, fromFile: URL(fileURLWithPath: fifo), completionHandler: done).resume()
        }
        XCTAssertEqual(response.head?.status, 200)
        XCTAssertEqual(server.requestLog.last?.bodySize, 8)
        var streamed = request
        streamed.body = .file(path: fifo)
        let predicted = ClientHeaders.onTheWire(streamed, configuration: SessionConfiguration()).map(\.header.description)
        XCTAssertEqual(predicted, Array(received.dropFirst()))
        XCTAssertTrue(received.contains("Transfer-Encoding: chunked"), "\(received)")
    }

    func testCompressionIsAskedForOnlyWhenTheRequestOrSessionSaysSo() async throws {
        var plain = SessionConfiguration()
        plain.compression = false
        _ = await send(HTTPRequest(url: url("/echo/head")), configuration: plain)
        XCTAssertFalse(received.contains { $0.hasPrefix("Accept-Encoding") })
        _ = await send(HTTPRequest(url: url("/echo/head"), options: .init(compressed: true)), configuration: plain)
        XCTAssertTrue(received.contains { $0.hasPrefix("Accept-Encoding: ") && $0.contains("gzip") }, "\(received)")
        let gzip = await send(HTTPRequest(url: url("/gzip"), options: .init(compressed: true)), configuration: plain)
        XCTAssertEqual(gzip.value.flatMap { try? JSONValue(parsing: $0) }?["gzipped"], .bool(true), "and the body is decoded")
    }

    func testCookiesFromTheJarAreShownAsSent() async throws {
        let manager = SessionManager()
        _ = await manager.data(for: HTTPRequest(url: url("/cookies/set?jar=1")))
        let second = await manager.data(for: HTTPRequest(url: url("/echo/head")))
        XCTAssertTrue(received.contains("Cookie: jar=1"), "\(received)")
        XCTAssertEqual(second.sentHeads.first?.headers.value(for: "Cookie"), "jar=1", "the jar's cookie is in the reported head")
    }

    func testURLRequestAtTheEdgeKeepsMethodBodyAndTimeout() async throws {
        var request = URLRequest(url: server.url("/delay/5"))
        request.timeoutInterval = 0.3
        let response = await SessionManager().data(for: request)
        XCTAssertEqual(response.error?.code, .timedOut)
        var post = URLRequest(url: server.url("/echo/head"))
        post.httpMethod = "POST"
        post.httpBody = Data("x".utf8)
        post.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        _ = await SessionManager().data(for: post)
        XCTAssertEqual(received.first, "POST /echo/head HTTP/1.1")
        XCTAssertTrue(received.contains("Content-Type: text/plain"))
    }

    func testAPostBodyAndAnOddMethodReachTheServerAsWrittenAndAreAnswered() async throws {
        let post = await send(HTTPRequest(method: "POST", url: url("/echo/head"), body: .data(Data("abc".utf8))))
        XCTAssertEqual(received.first, "POST /echo/head HTTP/1.1")
        XCTAssertFalse(received.contains { $0.lowercased().hasPrefix("content-type:") }, "no Content-Type invented: \(received)")
        XCTAssertTrue(received.contains("Content-Length: 3"), "\(received)")
        XCTAssertEqual(server.requestLog.last?.bodySize, 3)
        XCTAssertEqual(post.head?.status, 200)
        let odd = await send(HTTPRequest(method: "wHat", url: url("/echo/head")))
        XCTAssertEqual(odd.sentHeads.first?.method, "wHat")
        XCTAssertEqual(received.first, "wHat /echo/head HTTP/1.1")
        XCTAssertEqual(odd.head?.status, 200, "the server answered the method as written")
    }

    // MARK: Against nginx (TLS)

    func testRedirectToTLSDropsCredentialsAtNginx() async throws {
        let nginx = try requireServer(TestEnvironment.nginxURL, "nginx",
                                      why: "its /to-tls answers 307 to its own HTTPS port (a CA-file certificate); the embedded server speaks plain HTTP only")
        var configuration = SessionConfiguration()
        configuration.caFile = try XCTUnwrap(TestEnvironment.nginxCAFile)
        let manager = SessionManager(configuration: configuration)
        let request = HTTPRequest(method: "PUT", url: HTTPURL(string: nginx.absoluteString + "/to-tls")!,
                                  headers: [HTTPHeader(name: "Authorization", value: "Bearer secret"), HTTPHeader(name: "Cookie", value: "a=1")],
                                  body: .data(Data("body".utf8)))
        let response = await manager.data(for: request)
        XCTAssertEqual(response.redirects.map(\.status), [307])
        let text = String(decoding: response.value ?? Data(), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("PUT /seen HTTP/"), "307 keeps the method over TLS: \(text)")
        XCTAssertTrue(text.contains("|auth=|cookie=|"), "credentials are not sent to another scheme and port: \(text)")
        XCTAssertTrue(text.contains("length=4"), "the body followed: \(text)")
        var trusted = request
        trusted.options.trustedRedirects = true
        let kept = String(decoding: await manager.data(for: trusted).value ?? Data(), as: UTF8.self)
        XCTAssertTrue(kept.contains("|auth=Bearer secret|cookie=a=1|"), kept)
    }
}
