import Foundation
import ReqtopNetworking
import ReqtopProxy
import ReqtopTestSupport
import XCTest

/// HTTPS through the proxy: CONNECT tunnels to nginx's TLS port, and `--intercept`.
final class TunnelTests: ProxyTestCase {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func testConnectIsTunnelledUntouchedAndShownAsATask() throws {
        let (tls, ca) = try nginxTLS()
        let proxied = try curl(["--cacert", ca, tls.appendingPathComponent("files/1m.bin").absoluteString])
        XCTAssertEqual(proxied.status, 0, proxied.stderrText)
        let direct = try curl(["--cacert", ca, tls.appendingPathComponent("files/1m.bin").absoluteString], through: false)
        XCTAssertEqual(proxied.stdout.count, 1 << 20)
        XCTAssertEqual(sha256(proxied.stdout), sha256(direct.stdout), "the tunnel passes bytes untouched (nginx's own certificate)")
        let task = try XCTUnwrap(try waitForTasks(1).first)
        XCTAssertEqual(recorder.names(of: task).filter { $0 != .progress }, [.created, .resumed, .request, .response, .completed])
        guard case .created(let description)? = recorder.events(of: task).first?.kind,
              case .completed(let completion)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("a tunnel task") }
        XCTAssertEqual(description.request.method, "CONNECT")
        XCTAssertEqual(description.name, "tunnel")
        XCTAssertEqual(description.url.effectivePort, tls.port)
        XCTAssertEqual(completion.response.status, 200)
        XCTAssertGreaterThan(completion.bytes, 1 << 20, "bytes from the host: the body and TLS around it")
        let uploaded = recorder.events(of: task).compactMap { event -> Int64? in
            if case .progress(let progress) = event.kind, progress.direction == .upload { return progress.completed }
            return nil
        }.max() ?? 0
        XCTAssertGreaterThan(uploaded, 0, "bytes from the client (its TLS handshake and request)")
    }

    /// A CA folder and key someone loosened are made private again (the same CA: nothing is
    /// regenerated); a CA folder that is a symbolic link is refused.
    func testALooseCAFolderAndKeyAreTightenedAndKept() throws {
        let directory = try temporaryDirectory()
        let first = try CertificateAuthority.loadOrCreate(in: directory).authority
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        XCTAssertEqual(chmod(first.keyPath, 0o644), 0)
        let (again, created) = try CertificateAuthority.loadOrCreate(in: directory)
        XCTAssertFalse(created)
        XCTAssertEqual(again.fingerprint, first.fingerprint)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int, 0o700)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: first.keyPath)[.posixPermissions] as? Int, 0o600)
        let link = directory.deletingLastPathComponent().appendingPathComponent("linked-ca-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
        defer { try? FileManager.default.removeItem(at: link) }
        XCTAssertThrowsError(try CertificateAuthority.loadOrCreate(in: link)) { XCTAssertTrue("\($0)".contains("is a symbolic link"), "\($0)") }
    }

    func testInterceptDecryptsHTTPSForCurlAndPythonWithTheGeneratedCA() throws {
        let (tls, nginxCA) = try nginxTLS()
        let directory = try temporaryDirectory()
        let (authority, created) = try CertificateAuthority.loadOrCreate(in: directory)
        XCTAssertTrue(created)
        for path in [authority.certificatePath, authority.keyPath] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, path)
        }
        XCTAssertFalse(try CertificateAuthority.loadOrCreate(in: directory).created, "made once, then loaded")
        try startProxy({ $0.interception = authority }, session: { $0.caFile = nginxCA })

        let url = tls.appendingPathComponent("files/1m.bin").absoluteString
        let proxied = try curl(["--cacert", authority.certificatePath, url])
        XCTAssertEqual(proxied.status, 0, proxied.stderrText)
        XCTAssertEqual(sha256(proxied.stdout), sha256(try curl(["--cacert", nginxCA, url], through: false).stdout))
        let task = try XCTUnwrap(try waitForTasks(1).first)
        guard case .created(let description)? = recorder.events(of: task).first?.kind,
              case .requestSent(let head)? = recorder.events(of: task).first(where: { $0.name == .request })?.kind,
              case .completed(let completion)? = recorder.terminalEvent(of: task)?.kind else { return XCTFail("a decrypted task") }
        XCTAssertEqual(description.request.method, "GET")
        XCTAssertEqual(description.url.absoluteString, url, "the HTTPS request itself is the task")
        XCTAssertEqual(head.requestLine, "GET /files/1m.bin HTTP/1.1")
        XCTAssertEqual(completion.bytes, 1 << 20)

        // Python requests, trusting the CA through REQUESTS_CA_BUNDLE.
        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: python) {
            let script = "import requests, sys; r = requests.get(sys.argv[1] + '/seen'); print(r.status_code, r.text.strip())"
            let result = try Subprocess.run(python, ["-c", script, tls.absoluteString], timeout: 60,
                                            environment: ["HTTPS_PROXY": proxyURL, "REQUESTS_CA_BUNDLE": authority.certificatePath,
                                                          "NO_PROXY": ""])
            XCTAssertEqual(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
                           "200 GET /seen HTTP/1.1|auth=|cookie=|type=|length=", result.stderrText)
        } else if TestEnvironment.isCI {
            XCTFail("the test venv (.venv) is missing: make test creates it")
        }

        // A program that does not trust the CA fails its handshake; the proxy says why and goes on.
        let untrusting = try curl(["--cacert", nginxCA, url])
        XCTAssertNotEqual(untrusting.status, 0)
        try recorder.wait { events in events.contains { if case .failed(let failure) = $0.kind { failure.error.code == .tlsFailure } else { false } } }
        let failure = recorder.events.compactMap { event -> TaskFailure? in if case .failed(let f) = event.kind { f } else { nil } }.last
        XCTAssertTrue(failure?.error.message.contains(authority.certificatePath) ?? false, failure?.error.message ?? "")
        XCTAssertEqual(try curl(["--cacert", authority.certificatePath, "-o", "/dev/null", "-w", "%{http_code}", url]).stdoutText, "200")
    }
}
