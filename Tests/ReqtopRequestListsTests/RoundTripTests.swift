import Foundation
import ReqtopRequestLists
import XCTest

/// format → spec → format → spec gives the same specs.
final class RoundTripTests: XCTestCase {
    private func specs(_ list: RequestList) -> [RequestSpec] { list.specs.map(\.withoutLocation) }

    func testHTTPRoundTrips() throws {
        for fixture in ["separators-and-names", "query-continuation", "headers-and-body", "file-body", "file-variables",
                        "dynamic-variables", "chaining", "options"] {
            let original = try Fixtures.load("http/\(fixture).http")
            let written = HTTPFileWriter.text(for: original)
            let reparsed = try HTTPFileParser.parse(text: written, path: Fixtures.path("http/\(fixture)-copy.http"))
            XCTAssertEqual(specs(reparsed), specs(original), "\(fixture):\n\(written)")
            XCTAssertEqual(reparsed.fileVariables.map(\.value), original.fileVariables.map(\.value))
            XCTAssertEqual(HTTPFileWriter.text(for: reparsed), written, "writing is stable")
        }
    }

    func testHARRoundTrips() throws {
        for fixture in ["chrome", "mitmproxy"] {
            let original = try Fixtures.load("har/\(fixture).har")
            let data = try HARWriter.data(specs: original.specs, creator: ("reqtop", "test"))
            let reparsed = try HARImporter.parse(text: String(decoding: data, as: UTF8.self), path: "copy.har")
            XCTAssertEqual(specs(reparsed), specs(original), fixture)
        }
    }

    func testCurlRoundTrips() throws {
        for fixture in ["chrome-copy-as-curl.curl", "several-commands.sh", "unknown-flags.curl"] {
            let original = try Fixtures.load("curl/\(fixture)")
            let written = CurlWriter.commands(for: original.specs)
            let reparsed = try CurlImporter.parse(text: written, path: Fixtures.path("curl/copy.curl"))
            XCTAssertEqual(specs(reparsed), specs(original), "\(fixture):\n\(written)")
            XCTAssertTrue(reparsed.warnings.isEmpty, "\(reparsed.warnings)")
        }
    }

    func testCurlExportOfAResolvedRequestImportsToTheSameRequest() throws {
        let list = try Fixtures.load("http/file-variables.http")
        let resolved = try RequestResolver(list: list).resolve(1)
        let spec = try XCTUnwrap(CurlImporter.parse(text: CurlWriter.command(for: resolved), path: "r.curl").specs.first)
        XCTAssertEqual(spec.method, "POST")
        XCTAssertEqual(spec.url, resolved.url.absoluteString)
        XCTAssertEqual(spec.headers, resolved.headers)
        XCTAssertEqual(spec.body, .text("note for api.example.org"))
    }

    func testConversionBetweenFormatsKeepsTheRequests() throws {
        let har = try Fixtures.load("har/mitmproxy.har")
        let asCurl = try RequestListLoader.convert(har, to: .curl)
        let fromCurl = try RequestListLoader.load(text: String(decoding: asCurl, as: UTF8.self), path: "x.curl", format: .curl)
        XCTAssertEqual(fromCurl.specs.map(\.url), har.specs.map(\.url))
        XCTAssertEqual(fromCurl.specs.map(\.method), har.specs.map(\.method))
        XCTAssertEqual(fromCurl.specs.map(\.body), har.specs.map(\.body))
    }

    func testDryRunDescribesResolvedRequestsAndWaitingOnes() throws {
        let resolver = RequestResolver(list: try Fixtures.load("http/chaining.http"))
        let text = resolver.dryRunDescription()
        XCTAssertTrue(text.contains("POST https://api.example.org/login\n"), text)
        XCTAssertTrue(text.contains("# waits for the response of: login"), text)
    }
}
