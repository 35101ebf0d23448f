import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopSync
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Redirects, bodies spilled to disk and uploads against the embedded server; TLS and a
/// multi-hundred-megabyte download against nginx, which the embedded server does not replace.
final class TransportTests: EmbeddedServerTestCase {

    func testRedirectHopsAreRecordedAndPosted() async throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let response = await manager.data(for: HTTPRequest(server.url("/redirect/3")))
        XCTAssertEqual(response.head?.status, 200)
        XCTAssertEqual(response.redirects.count, 3)
        XCTAssertEqual(response.redirects.map(\.status), [302, 302, 302])
        XCTAssertEqual(response.redirects.first?.from.path, "/redirect/3")
        XCTAssertEqual(response.redirects.last?.to.path, "/get")
        XCTAssertEqual(response.head?.url.path, "/get")
        try recorder.waitForEnd(of: [response.task])
        XCTAssertEqual(recorder.names(of: response.task).filter { $0 == .redirected }.count, 3)
    }

    func testRedirectLimitFailsWithTypedError() async throws {
        let manager = SessionManager()
        let response = await manager.data(for: HTTPRequest(server.url("/redirect/5"),
                                                           options: .init(maxRedirects: 2)))
        XCTAssertEqual(response.error?.code, .tooManyRedirects)
    }

    func testRedirectsAreNotFollowedWhenDisabled() async throws {
        let manager = SessionManager()
        let response = await manager.data(for: HTTPRequest(server.url("/redirect/1"),
                                                           options: .init(followRedirects: false)))
        XCTAssertEqual(response.head?.status, 302)
        XCTAssertTrue(response.redirects.isEmpty)
    }

    func testSelfSignedTLSFailsByDefaultAndSucceedsWithInsecureOrCAFile() async throws {
        let tls = try requireServer(TestEnvironment.nginxTLSURL, "nginx (TLS)",
                                    why: "it serves HTTPS with a certificate from a CA file; the embedded server speaks plain HTTP only")
        let url = tls.appendingPathComponent("files/10k.bin")
        let strict = await SessionManager().data(for: HTTPRequest(url))
        XCTAssertEqual(strict.error?.code, .tlsFailure, "\(String(describing: strict.error))")

        var insecure = SessionConfiguration()
        insecure.insecure = true
        let lax = await SessionManager(configuration: insecure).data(for: HTTPRequest(url))
        XCTAssertEqual(lax.value?.count, 10_240)
        XCTAssertNotEqual(lax.timings?.tls, -1, "a TLS handshake was timed")

        var pinned = SessionConfiguration()
        pinned.caFile = try XCTUnwrap(TestEnvironment.nginxCAFile)
        let trusted = await SessionManager(configuration: pinned).data(for: HTTPRequest(url))
        XCTAssertEqual(trusted.value?.count, 10_240)
        XCTAssertEqual(trusted.head?.httpVersion, "2", "nginx offers HTTP/2 over TLS")
    }

    func testLargeDownloadStreamsToFileWithFlatMemory() throws {
        let nginx = try requireServer(TestEnvironment.nginxURL, "nginx",
                                      why: "the test measures this process's memory while downloading files/large.bin (256 MB by default), "
                                        + "so the server must run in another process, not embedded in this one")
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        let manager = SessionManager()
        let baseline = residentBytes()
        let peak = Protected(baseline)
        let response: TaskResponse<URL> = try awaitCompletion(timeout: 120) { done in
            let task = manager.downloadTask(with: HTTPRequest(nginx.appendingPathComponent("files/large.bin")),
                                            destination: destination,
                                            progress: { _ in peak.withLock { $0 = max($0, residentBytes()) } },
                                            completionHandler: done)
            try? task.resume()
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int)
        XCTAssertGreaterThanOrEqual(size, 200 << 20)
        XCTAssertEqual(response.bytes, Int64(size))
        XCTAssertEqual(response.value, destination)
        XCTAssertLessThan(peak.snapshot - baseline, 30 << 20, "RSS grew by \((peak.snapshot - baseline) >> 20) MB")
    }

    func testBodyOverTheMemoryCapSpillsToATemporaryFileThatIsDeletedWithTheResponse() throws {
        var configuration = SessionConfiguration()
        configuration.maxBodyBytesInMemory = 64 << 10
        let manager = SessionManager(configuration: configuration)
        var response: TaskResponse<Data>? = try awaitCompletion { done in
            try? manager.dataTask(with: HTTPRequest(server.url("/bytes/1048576")), completionHandler: done).resume()
        }
        let spilledPath: String? = {
            guard case .file(let file)? = response?.body, file.isTemporary else { return nil }
            return file.url.path
        }()
        let path = try XCTUnwrap(spilledPath, "expected a body spilled to a temporary file")
        XCTAssertEqual(response?.value?.count, 1_048_576)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        response = nil
        _ = response
        // The completion event's payload may still hold the body briefly; wait for the last reference to go.
        XCTAssertTrue(eventually(timeout: 5) { !FileManager.default.fileExists(atPath: path) }, "temporary body file deleted when released")
    }

    func testUploadReportsMonotoneProgressEndingAtItsSize() throws {
        let size = 5 << 20
        let body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let manager = SessionManager()
        let reports = Protected([Int64]())
        let request = HTTPRequest(server.url("/echo/head"), method: "POST",
                                  headers: [HTTPHeader(name: "Content-Type", value: "application/octet-stream")])
        let response: TaskResponse<Data> = try awaitCompletion(timeout: 60) { done in
            let task = manager.uploadTask(with: request, from: body, progress: { progress in
                reports.withLock { $0.append(progress.completed) }
            }, completionHandler: done)
            try? task.resume()
        }
        XCTAssertEqual(response.head?.status, 200)
        XCTAssertEqual(server.requestLog.last?.bodySize, size, "the server received the whole body")
        let seen = reports.snapshot
        XCTAssertFalse(seen.isEmpty)
        XCTAssertEqual(seen, seen.sorted(), "upload progress is monotone")
        XCTAssertEqual(seen.last, Int64(size))
    }
}
