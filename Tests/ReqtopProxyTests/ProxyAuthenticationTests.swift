import Foundation
import ReqtopNetworking
import ReqtopProxy
import ReqtopTestSupport
import XCTest

/// `--proxy-auth` and `--allow-remote`: who may send requests through the proxy.
final class ProxyAuthenticationTests: ProxyTestCase {
    private let user = "ana"
    private let password = "s3:cr et" // a colon and a space: only the first colon separates

    private func failureMessages() -> [String] {
        recorder.flush()
        return recorder.events.compactMap { event in if case .failed(let failure) = event.kind { failure.error.message } else { nil } }
    }

    func testWithoutCredentialsAClientGets407AndNothingIsForwarded() throws {
        try startProxy { $0.credentials = ProxyCredentials("\(self.user):\(self.password)") }
        let anonymous = try curl(["-i", server.url("/get?anonymous").absoluteString])
        XCTAssertTrue(anonymous.stdoutText.hasPrefix("HTTP/1.1 407 Proxy Authentication Required"), anonymous.stdoutText)
        XCTAssertTrue(anonymous.stdoutText.contains("Proxy-Authenticate: Basic realm=\"reqtop\""), anonymous.stdoutText)
        let wrong = try curl(["-i", "--proxy-user", "\(user):wrong", server.url("/get?wrong").absoluteString])
        XCTAssertTrue(wrong.stdoutText.hasPrefix("HTTP/1.1 407"), wrong.stdoutText)
        // CONNECT is refused the same way, and its tunnel task says so.
        let tunnel = try curl(["--proxytunnel", server.url("/get?tunnel").absoluteString])
        XCTAssertNotEqual(tunnel.status, 0)
        XCTAssertTrue(tunnel.stderrText.contains("407"), tunnel.stderrText)

        let tasks = try waitForTasks(3)
        XCTAssertEqual(tasks.count, 3, "each refused attempt is a task")
        let messages = failureMessages()
        XCTAssertEqual(messages.filter { $0.hasPrefix("proxy authentication required") }.count, 2, "\(messages)")
        XCTAssertEqual(messages.filter { $0.hasPrefix("proxy authentication failed") }.count, 1, "\(messages)")
        guard case .created(let description)? = recorder.events(of: tasks[2]).first?.kind else { return XCTFail("a tunnel task") }
        XCTAssertEqual(description.request.method, "CONNECT")
        XCTAssertTrue(server.requestLog.isEmpty, "nothing reached the server: \(server.requestLog.map(\.target))")
    }

    func testWithCredentialsRequestsAndTunnelsGoThroughWithoutThem() throws {
        try startProxy { $0.credentials = ProxyCredentials("\(self.user):\(self.password)") }
        let plain = try curl(["--proxy-user", "\(user):\(password)", "-o", "/dev/null", "-w", "%{http_code}", server.url("/get?plain").absoluteString])
        XCTAssertEqual(plain.stdoutText, "200", plain.stderrText)
        let tunnelled = try curl(["--proxytunnel", "--proxy-user", "\(user):\(password)", "-o", "/dev/null", "-w", "%{http_code}",
                                  server.url("/get?tunnelled").absoluteString])
        XCTAssertEqual(tunnelled.stdoutText, "200", tunnelled.stderrText)
        let logged = server.requestLog
        XCTAssertEqual(logged.map(\.target), ["/get?plain", "/get?tunnelled"])
        XCTAssertEqual(logged.compactMap { $0.header("Proxy-Authorization") }, [], "the credentials are the proxy's, not forwarded")
        XCTAssertEqual(try waitForTasks(2).count, 2)
        XCTAssertEqual(failureMessages(), [])
    }

    func testANonLoopbackAddressNeedsCredentialsOrAllowRemote() throws {
        proxy.stop()
        var open = ProxyConfiguration()
        open.host = "0.0.0.0"
        open.port = 0
        XCTAssertThrowsError(try ForwardProxy(manager: manager, configuration: open)) { error in
            XCTAssertTrue("\(error)".contains("not a loopback address"), "\(error)")
        }
        var allowed = open
        allowed.allowsRemoteClients = true
        try ForwardProxy(manager: manager, configuration: allowed).stop()
        var guarded = open
        guarded.credentials = ProxyCredentials("a:b")
        try ForwardProxy(manager: manager, configuration: guarded).stop()

        for host in ["127.0.0.1", "127.9.9.9", "::1", "[::1]", "localhost", "LOCALHOST"] {
            XCTAssertTrue(ProxyCredentials.isLoopback(host), host)
        }
        for host in ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "example.test", "128.0.0.1", "::2"] {
            XCTAssertFalse(ProxyCredentials.isLoopback(host), host)
        }
        XCTAssertNil(ProxyCredentials("nocolon"))
        XCTAssertNil(ProxyCredentials(":only-password"))
        XCTAssertEqual(ProxyCredentials("u:p:q")?.password, "p:q")
    }
}
