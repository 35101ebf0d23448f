import Foundation
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// A test case with a fresh ``TestServer`` per test and curl as the client.
class ServerTestCase: EmbeddedServerTestCase {
    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    /// Runs curl (`-sS`, no proxy) with `arguments`.
    func curl(_ arguments: [String], timeout: Double = 60) throws -> SubprocessResult {
        let curl = try XCTUnwrap(findExecutable(named: "curl"), "curl is needed on PATH for these tests")
        return try Subprocess.run(curl, ["-sS", "--noproxy", "*"] + arguments, timeout: timeout)
    }

    /// GETs `path` and returns the body, failing the test unless curl succeeds.
    func body(_ path: String, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let result = try curl(extra + [url(path)])
        XCTAssertEqual(result.status, 0, "curl \(path): \(result.stderrText)", file: file, line: line)
        return result.stdout
    }

    /// Requests `path` and decodes the body as a JSON object.
    func json(_ path: String, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let data = try body(path, extra, file: file, line: line)
        let object = try JSONSerialization.jsonObject(with: data)
        return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(String(decoding: data, as: UTF8.self))")
    }

    /// Requests `path` with `-D -` and returns (status code, headers lowercased, body).
    func exchange(_ path: String, _ extra: [String] = []) throws -> (status: Int, headers: [String: String], body: Data) {
        let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).headers")
        defer { try? FileManager.default.removeItem(at: headerFile) }
        let result = try curl(extra + ["-D", headerFile.path, url(path)])
        XCTAssertEqual(result.status, 0, "curl \(path): \(result.stderrText)")
        let head = String(decoding: (try? Data(contentsOf: headerFile)) ?? Data(), as: UTF8.self)
        let blocks = head.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        let lines = (blocks.last ?? "").components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers, result.stdout)
    }

    /// SHA-256 of `data` computed by the system's `sha256sum`, an implementation independent of the server's.
    func systemSHA256(_ data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).bin")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let tool = try XCTUnwrap(findExecutable(named: "sha256sum"))
        let result = try Subprocess.run(tool, [file.path])
        return String(result.stdoutText.prefix(64))
    }
}
