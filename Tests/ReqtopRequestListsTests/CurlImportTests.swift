import Foundation
import ReqtopRequestLists
import XCTest

final class CurlImportTests: XCTestCase {
    func testChromeCopyAsCurlWithANSIQuotesAndContinuations() throws {
        let list = try Fixtures.load("curl/chrome-copy-as-curl.curl")
        XCTAssertEqual(list.format, .curl)
        XCTAssertEqual(list.specs.count, 1)
        let spec = list.specs[0]
        XCTAssertEqual(spec.method, "POST")
        XCTAssertEqual(spec.url, "https://api.example.org/graphql?op=Search")
        XCTAssertEqual(spec.header(named: "Cookie"), "sid=abc123; theme=dark")
        XCTAssertEqual(spec.header(named: "x-note"), "it's a\ttab")
        XCTAssertEqual(spec.header(named: "content-type"), "application/json")
        XCTAssertEqual(spec.body, .text(#"{"query":"query Search { items { id } }","note":"line1\nline2 é"}"#))
        XCTAssertEqual(spec.options.compressed, true)
        XCTAssertTrue(list.warnings.isEmpty, "\(list.warnings)")
    }

    func testRedirectsAreFollowedOnlyWithLocationAsCurlDoes() throws {
        let list = try RequestListLoader.load(text: "curl http://h.test/a\ncurl -L http://h.test/b\n", path: "x.curl", format: .curl)
        XCTAssertEqual(list.specs.map(\.options.followRedirects), [false, true])
        // reqtop follows by default, so a spec that does not say otherwise exports with -L.
        XCTAssertTrue(curlCommand(RequestSpec(url: "http://h.test/c"))?.contains(" -L") ?? false)
        XCTAssertFalse(curlCommand(list.specs[0])?.contains(" -L") ?? true)
    }

    func testSeveralCommandsAndTheFlagsReqtopApplies() throws {
        let list = try Fixtures.load("curl/several-commands.sh")
        XCTAssertEqual(list.specs.count, 4)
        let put = list.specs[0]
        XCTAssertEqual(put.method, "PUT")
        XCTAssertEqual(put.body, .text(#"{"name":"widget"}"#))
        XCTAssertEqual(put.header(named: "Content-Type"), "application/json")

        let head = list.specs[1]
        XCTAssertEqual(head.method, "HEAD")
        XCTAssertEqual(head.header(named: "Authorization"), "Basic " + Data("ada:lovelace".utf8).base64EncodedString())
        XCTAssertEqual(head.header(named: "User-Agent"), "reqtop-test/1.0")
        XCTAssertEqual(head.header(named: "Referer"), "https://ref.example.org/")
        XCTAssertEqual(head.options.insecure, true)
        XCTAssertEqual(head.options.followRedirects, true)

        let search = list.specs[2]
        XCTAssertEqual(search.method, "GET")
        XCTAssertEqual(search.url, "https://api.example.org/search?q=swift&tag=a+b")
        XCTAssertNil(search.body)
        XCTAssertEqual(search.options.timeout, 5)

        let form = list.specs[3]
        XCTAssertEqual(form.body, .text("name=Ada+Lovelace&lang=en"))
        let resolved = try RequestResolver(list: list).resolve(3)
        XCTAssertEqual(String(decoding: resolved.body.data ?? Data(), as: UTF8.self), "name=Ada+Lovelace&lang=en")
        XCTAssertEqual(resolved.header(named: "Content-Type"), "application/x-www-form-urlencoded")

        XCTAssertEqual(list.warnings, [], "-sS changes nothing sent: accepted silently")
    }

    func testOptionsNotAppliedAreListedAndOutputOptionsAreAcceptedSilently() throws {
        let list = try Fixtures.load("curl/unknown-flags.curl")
        XCTAssertEqual(list.specs.map(\.url), ["https://api.example.org/report"], "no option value is read as a URL")
        let message = try XCTUnwrap(list.warnings.first?.message)
        for flag in ["--proxy http://proxy.test:8080", "--digest", "--cert client.pem"] {
            XCTAssertTrue(message.contains(flag), "\(flag) missing from: \(message)")
        }
        for flag in ["--retry", "-o", "--fail", "-v"] {
            XCTAssertFalse(message.contains(flag + " ") || message.hasSuffix(flag), "\(flag) changes nothing sent: \(message)")
        }
    }

    func testShellQuotingForms() throws {
        let text = #"curl "http://x.example/a%20b" -H "X-A: \"q\" \$HOME" -H X-B:\ c -H $'X-C: \x41\u00e9\101' # comment"#
        let spec = try XCTUnwrap(CurlImporter.parse(text: text, path: "q.curl").specs.first)
        XCTAssertEqual(spec.url, "http://x.example/a%20b")
        XCTAssertEqual(spec.headers, [
            HTTPHeader(name: "X-A", value: #""q" $HOME"#),
            HTTPHeader(name: "X-B", value: "c"),
            HTTPHeader(name: "X-C", value: "AéA"),
        ])
    }

    func testChromeCopyAllAsCurlSeparatesCommandsWithSemicolons() throws {
        let text = "curl 'http://x.example/1' \\\n  -H 'accept: */*' ;\ncurl 'http://x.example/2' \\\n  -H 'accept: */*' && curl http://x.example/3 | jq ."
        let list = try CurlImporter.parse(text: text, path: "all.sh")
        XCTAssertEqual(list.specs.map(\.url), ["http://x.example/1", "http://x.example/2", "http://x.example/3"])
        XCTAssertEqual(list.specs.map { $0.location?.line }, [1, 3, 4])
        XCTAssertEqual(list.warnings.map(\.message), ["skipped 'jq': not a curl command"])
    }

    func testTextWithoutCurlIsAnError() {
        XCTAssertThrowsError(try CurlImporter.parse(text: "wget http://x.example/\n", path: "n.txt"))
    }
}
