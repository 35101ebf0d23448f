import Foundation
import ReqtopNetworking
import ReqtopSync
import ReqtopTestServer
import XCTest

/// Every redirect is decided by one policy: which method and body follow, which schemes may be
/// followed, and which credentials survive a change of origin — checked with two embedded servers,
/// on 127.0.0.1 and on 127.0.0.2, asserting what the second one received.
final class RedirectPolicyTests: XCTestCase {
    private var first: TestServer!
    private var second: TestServer!

    override func setUpWithError() throws {
        first = try TestServer(host: "127.0.0.1")
        second = try TestServer(host: "127.0.0.2")
        first.start()
        second.start()
    }

    override func tearDown() {
        first.stop()
        second.stop()
    }

    private func redirect(_ status: Int, to target: String) -> HTTPURL {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return HTTPURL(string: first.url("/redirect-to?status_code=\(status)&url=\(encoded)").absoluteString)!
    }

    private let credentials = [HTTPHeader(name: "Authorization", value: "Bearer secret"), HTTPHeader(name: "Cookie", value: "sid=1"),
                               HTTPHeader(name: "Proxy-Authorization", value: "Basic eDp5"), HTTPHeader(name: "X-Keep", value: "yes")]

    func testMethodAndBodyPerStatusAndCredentialsDroppedAcrossOrigins() async throws {
        let manager = SessionManager()
        let target = second.url("/echo/head").absoluteString
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
            for status in [301, 302, 303, 307, 308] {
                let hasBody = method != "GET"
                let request = HTTPRequest(method: method, url: redirect(status, to: target),
                                          headers: credentials + (hasBody ? [HTTPHeader(name: "Content-Type", value: "text/plain")] : []),
                                          body: hasBody ? .data(Data("payload".utf8)) : .none)
                let response = await manager.data(for: request)
                let context = "\(method) \(status)"
                XCTAssertEqual(response.head?.status, 200, context)
                XCTAssertEqual(response.redirects.map(\.status), [status], context)
                let got = try XCTUnwrap(second.requestLog.last, context)
                let becomesGET = status == 303 || ((status == 301 || status == 302) && method == "POST")
                XCTAssertEqual(got.method, becomesGET ? "GET" : method, context)
                XCTAssertEqual(got.bodySize, hasBody && !becomesGET ? 7 : 0, context)
                XCTAssertEqual(got.header("Content-Type"), hasBody && !becomesGET ? "text/plain" : nil, context)
                for name in ["Authorization", "Cookie", "Proxy-Authorization"] {
                    XCTAssertNil(got.header(name), "\(context): \(name) must not reach another host")
                }
                XCTAssertEqual(got.header("X-Keep"), "yes", context)
                XCTAssertEqual(got.rawHead, response.sentHeads.last?.lines, "\(context): the last hop's head is reported as sent")
            }
        }
    }

    func testCredentialsStayOnTheSameOriginAndWhenTrusted() async throws {
        let manager = SessionManager()
        let sameOrigin = await manager.data(for: HTTPRequest(method: "PUT", url: redirect(307, to: "/echo/head"), headers: credentials,
                                                             body: .data(Data("x".utf8))))
        XCTAssertEqual(sameOrigin.head?.status, 200)
        XCTAssertEqual(first.requestLog.last?.header("Authorization"), "Bearer secret")
        XCTAssertEqual(first.requestLog.last?.header("Cookie"), "sid=1")

        let trusted = HTTPRequest(method: "DELETE", url: redirect(308, to: second.url("/echo/head").absoluteString), headers: credentials,
                                  options: .init(trustedRedirects: true))
        _ = await manager.data(for: trusted)
        XCTAssertEqual(second.requestLog.last?.header("Authorization"), "Bearer secret", "opted in with trustedRedirects")
        XCTAssertEqual(second.requestLog.last?.header("Cookie"), "sid=1")
    }

    func testAnotherPortIsAnotherOrigin() async throws {
        let other = try TestServer(host: "127.0.0.1")
        other.start()
        defer { other.stop() }
        _ = await SessionManager().data(for: HTTPRequest(method: "PATCH", url: redirect(307, to: other.url("/echo/head").absoluteString),
                                                         headers: credentials, body: .data(Data("x".utf8))))
        XCTAssertEqual(other.requestLog.last?.method, "PATCH")
        XCTAssertNil(other.requestLog.last?.header("Authorization"))
    }

    func testTheJarStillSendsCookiesThatMatchTheNewHost() async throws {
        let manager = SessionManager()
        _ = await manager.data(for: HTTPRequest(url: HTTPURL(string: second.url("/cookies/set?jar=2").absoluteString)!))
        _ = await manager.data(for: HTTPRequest(method: "PUT", url: redirect(307, to: second.url("/echo/head").absoluteString),
                                                headers: [HTTPHeader(name: "Cookie", value: "mine=1")], body: .data(Data("x".utf8))))
        XCTAssertEqual(second.requestLog.last?.header("Cookie"), "jar=2", "the jar's cookie for 127.0.0.2, not the custom one")
    }

    func testRedirectsToOtherSchemesAreRefusedForEveryMethod() async throws {
        let manager = SessionManager()
        let listener = try TestServer(host: "127.0.0.1") // would receive the dict: request if it were followed
        listener.start()
        defer { listener.stop() }
        let targets = ["file:///dev/zero", "dict://127.0.0.1:\(listener.port)/d:secret-word", "ftp://127.0.0.1:\(listener.port)/x",
                       "gopher://127.0.0.1:\(listener.port)/_x"]
        for method in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] {
            for target in targets {
                for status in [302, 307] {
                    let response = await manager.data(for: HTTPRequest(method: method, url: redirect(status, to: target),
                                                                       body: method == "POST" ? .data(Data("x".utf8)) : .none))
                    XCTAssertEqual(response.error?.code, .redirectRefused, "\(method) \(status) → \(target)")
                    XCTAssertEqual(response.head?.status, status, "the refused redirect response is the task's response")
                    XCTAssertEqual(response.bytes <= 64 * 1024, true)
                }
            }
        }
        XCTAssertEqual(listener.requestLog.count, 0)
        XCTAssertEqual(listener.connectionCount, 0, "nothing connected to the other port")
    }

    func testHopLimitAndNoRedirect() async throws {
        let manager = SessionManager()
        let limited = await manager.data(for: HTTPRequest(url: HTTPURL(string: first.url("/redirect/4").absoluteString)!,
                                                          options: .init(maxRedirects: 2)))
        XCTAssertEqual(limited.error?.code, .tooManyRedirects)
        XCTAssertEqual(limited.redirects.count, 2)
        let unfollowed = await manager.data(for: HTTPRequest(url: HTTPURL(string: first.url("/redirect/1").absoluteString)!,
                                                             options: .init(followRedirects: false)))
        XCTAssertEqual(unfollowed.head?.status, 302)
        XCTAssertNil(unfollowed.error)
    }

    func testEachHopKeepsItsResponseHeadAndTimings() async throws {
        let response = await SessionManager().data(for: HTTPRequest(url: HTTPURL(string: first.url("/cookies/set?a=1&b=2").absoluteString)!))
        let hop = try XCTUnwrap(response.redirects.first)
        XCTAssertEqual(hop.response.status, 302)
        XCTAssertEqual(hop.response.headers.values(for: "Set-Cookie").count, 2, "Set-Cookie fields stay separate")
        XCTAssertNotNil(hop.timings)
        XCTAssertEqual(response.sentHeads.count, 2)
    }
}
