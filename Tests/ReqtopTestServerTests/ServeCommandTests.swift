import Foundation
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// `reqtop serve` end to end, run from the built executable `.build/debug/reqtop`.
final class ServeCommandTests: XCTestCase {
    private var reqtop: String!
    private var curlPath: String!

    override func setUpWithError() throws {
        reqtop = TestEnvironment.builtProduct("reqtop")
        guard FileManager.default.isExecutableFile(atPath: reqtop) else {
            XCTFail("\(reqtop!) is missing: run `swift build --product reqtop` first")
            throw XCTSkip("reqtop executable not built")
        }
        curlPath = try XCTUnwrap(findExecutable(named: "curl"))
    }

    func testServePrintsListeningLineAnswersGetAndStopsCleanlyOnSIGINT() throws {
        let process = try RunningProcess(reqtop, ["serve", "--port", "0"])
        defer { process.terminate() }
        let line = try XCTUnwrap(process.firstLine(timeout: 10), "no first line; stderr: \(process.stderrText)")
        XCTAssertTrue(line.hasPrefix("listening on http://127.0.0.1:"), line)
        let base = String(line.dropFirst("listening on ".count))
        XCTAssertNotEqual(base, "http://127.0.0.1:0")

        let response = try Subprocess.run(curlPath, ["-sS", "--noproxy", "*", "-w", "\n%{http_code}", base + "/get"])
        XCTAssertEqual(response.status, 0, response.stderrText)
        let lines = response.stdoutText.split(separator: "\n")
        XCTAssertEqual(lines.last, "200")
        let document = try JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8))
        XCTAssertEqual((document as? [String: Any])?["url"] as? String, base + "/get")

        process.send(signal: SIGINT)
        XCTAssertEqual(process.waitForExit(timeout: 10), 0)
    }

    func testServeOnABusyPortExits2NamingThePort() throws {
        let occupier = try TestServer()
        defer { occupier.stop() }
        let result = try Subprocess.run(reqtop, ["serve", "--port", String(occupier.port)], timeout: 10)
        XCTAssertEqual(result.status, 2)
        let lines = result.stderrText.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("port \(occupier.port)"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains("address already in use"), result.stderrText)
        XCTAssertTrue(result.stdout.isEmpty)
    }

    func testServeRejectsBadPortAndUnknownFlagWithExit2() throws {
        for arguments in [["--port", "70000"], ["--port", "abc"], ["--bogus"], ["--port"]] {
            let result = try Subprocess.run(reqtop, ["serve"] + arguments, timeout: 10)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderrText.split(separator: "\n").count, 1, result.stderrText)
            XCTAssertTrue(result.stderrText.hasPrefix("reqtop serve: "), result.stderrText)
        }
        let badPort = try Subprocess.run(reqtop, ["serve", "--port", "70000"], timeout: 10)
        XCTAssertTrue(badPort.stderrText.contains("port 70000"), badPort.stderrText)
    }

    func testServeHelpPrintsUsage() throws {
        let result = try Subprocess.run(reqtop, ["serve", "--help"], timeout: 10)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdoutText.hasPrefix("Usage: reqtop serve"), result.stdoutText)
    }
}
