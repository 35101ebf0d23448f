import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopProxy
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// An embedded origin server, a `SessionManager` set up for forwarding, a `ForwardProxy` on a free
/// loopback port in front of it, and a recorder of the manager's bus — per test.
class ProxyTestCase: EmbeddedServerTestCase {
    var manager: SessionManager!
    var proxy: ForwardProxy!
    var recorder: EventRecorder!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try startProxy()
    }

    override func tearDown() {
        proxy?.stop()
        manager?.invalidate()
        proxy = nil
        manager = nil
        recorder = nil
        super.tearDown()
    }

    /// (Re)starts the proxy with `configure` applied to its configuration and `session` to the manager's.
    func startProxy(_ configure: (inout ProxyConfiguration) -> Void = { _ in },
                    session: (inout SessionConfiguration) -> Void = { _ in }) throws {
        proxy?.stop()
        manager?.invalidate()
        var sessionConfiguration = ProxyConfiguration.forwardingSession()
        session(&sessionConfiguration)
        manager = SessionManager(configuration: sessionConfiguration)
        recorder = EventRecorder(bus: manager.bus)
        var configuration = ProxyConfiguration()
        configuration.port = 0
        configure(&configuration)
        proxy = try ForwardProxy(manager: manager, configuration: configuration)
    }

    var proxyURL: String { "http://127.0.0.1:\(proxy.port)" }

    /// nginx's TLS port (HTTP/2 by ALPN) and the CA of its certificate, from `scripts/with-test-servers.sh`.
    func nginxTLS() throws -> (url: URL, ca: String) {
        guard let url = TestEnvironment.nginxTLSURL, let ca = TestEnvironment.nginxCAFile else {
            if TestEnvironment.isCI { XCTFail("nginx (TLS) is not running: run the tests through `make test`") }
            throw XCTSkip("nginx (TLS) is not running (use `make test`, which starts it)")
        }
        return (url, ca)
    }

    /// The test venv's Python (PyPI's h2, httpx, websockets): a skip locally without it, a failure in CI.
    func python() throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            if TestEnvironment.isCI { XCTFail("the test venv (.venv) is missing: make test creates it") }
            throw XCTSkip("no .venv with h2, httpx and websockets (make test creates it)")
        }
        return path
    }

    /// curl through the proxy (`-x`), silent but showing errors.
    func curl(_ arguments: [String], through proxy: Bool = true, environment: [String: String] = [:]) throws -> SubprocessResult {
        let curl = try XCTUnwrap(findExecutable(named: "curl"), "curl is needed (make test installs it)")
        return try Subprocess.run(curl, ["-sS"] + (proxy ? ["-x", proxyURL] : ["--noproxy", "*"]) + arguments, timeout: 120,
                                  environment: environment)
    }

    /// The tasks the proxy created, in order, with their events.
    func proxiedTasks() -> [TaskID] {
        recorder.flush()
        var seen: [TaskID] = []
        for event in recorder.events where event.name == .created && !seen.contains(event.task) { seen.append(event.task) }
        return seen
    }

    func waitForTasks(_ count: Int, toEnd: Bool = true) throws -> [TaskID] {
        try recorder.wait { events in
            Set(events.filter { toEnd ? $0.isTerminal : $0.name == .created }.map(\.task)).count >= count
        }
        return proxiedTasks()
    }

    func sha256(_ data: Data) -> String { SHA256.hex(of: data) }

    /// A connection to the proxy for requests curl would not send.
    func rawConnection() throws -> RawConnection { try RawConnection(port: UInt16(proxy.port)) }
}

extension RawConnection {
    /// Reads until `marker` has arrived (as text) or `timeout` passes.
    func read(until marker: String, timeout: Double = 10) -> String {
        String(decoding: read(timeout: timeout) { String(decoding: $0, as: UTF8.self).contains(marker) }, as: UTF8.self)
    }
}
