import Foundation
import ReqtopTestServer
import XCTest

/// `/status`, `/redirect`, `/redirect-to`, `/cookies`, `/basic-auth`.
final class StatusRedirectCookieAuthTests: ServerTestCase {
    func testStatusRespondsWithTheRequestedCode() throws {
        for code in [200, 201, 204, 400, 418, 500, 503] {
            let result = try curl(["-o", "/dev/null", "-w", "%{http_code}", url("/status/\(code)")])
            XCTAssertEqual(result.stdoutText, String(code))
        }
        XCTAssertEqual(try exchange("/status/302").headers["location"], "/redirect/1")
        XCTAssertNotNil(try exchange("/status/401").headers["www-authenticate"])
        XCTAssertEqual(try exchange("/status/99").status, 400)
        XCTAssertEqual(try exchange("/status/teapot").status, 400)
    }

    func testRedirectChainsRelativeLocationsDownToGet() throws {
        let first = try exchange("/redirect/3")
        XCTAssertEqual(first.status, 302)
        XCTAssertEqual(first.headers["location"], "/redirect/2")
        XCTAssertEqual(try exchange("/redirect/1").headers["location"], "/get")

        let followed = try curl(["-L", "-o", "/dev/null", "-w", "%{num_redirects} %{url_effective}", url("/redirect/3")])
        XCTAssertEqual(followed.stdoutText, "3 " + url("/get"))
        XCTAssertEqual(server.requestCount(path: "/get"), 1)
    }

    func testRedirectWithAbsoluteTrueGivesAbsoluteLocation() throws {
        XCTAssertEqual(try exchange("/redirect/1?absolute=true").headers["location"], url("/get"))
    }

    func testRedirectToUsesURLAndStatusCode() throws {
        let result = try exchange("/redirect-to?url=%2Fheaders&status_code=307")
        XCTAssertEqual(result.status, 307)
        XCTAssertEqual(result.headers["location"], "/headers")
        XCTAssertEqual(try exchange("/redirect-to?url=http://example.invalid/").status, 302)
        XCTAssertEqual(try exchange("/redirect-to").status, 400)
    }

    func testCookiesEchoesRequestCookies() throws {
        let document = try json("/cookies", ["-b", "a=1; b=two"])
        XCTAssertEqual(document["cookies"] as? [String: String], ["a": "1", "b": "two"])
    }

    func testCookiesSetSetsCookieAndRedirectsToCookies() throws {
        let result = try exchange("/cookies/set?flavour=oat")
        XCTAssertEqual(result.status, 302)
        XCTAssertEqual(result.headers["location"], "/cookies")
        XCTAssertEqual(result.headers["set-cookie"], "flavour=oat; Path=/")
        let jar = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).jar")
        defer { try? FileManager.default.removeItem(at: jar) }
        let document = try json("/cookies/set?flavour=oat", ["-L", "-c", jar.path, "-b", jar.path])
        XCTAssertEqual(document["cookies"] as? [String: String], ["flavour": "oat"])
    }

    func testBasicAuthAcceptsRightCredentialsAndChallengesWrongOnes() throws {
        let good = try json("/basic-auth/ann/s3cret", ["-u", "ann:s3cret"])
        XCTAssertEqual(good["authenticated"] as? Bool, true)
        XCTAssertEqual(good["user"] as? String, "ann")

        let bad = try exchange("/basic-auth/ann/s3cret", ["-u", "ann:wrong"])
        XCTAssertEqual(bad.status, 401)
        XCTAssertEqual(bad.headers["www-authenticate"], "Basic realm=\"Fake Realm\"")
        XCTAssertEqual(try exchange("/basic-auth/ann/s3cret").status, 401)
    }
}
