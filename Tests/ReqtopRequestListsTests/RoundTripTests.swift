import Foundation
import ReqtopRequestLists
import ReqtopTestSupport
import XCTest

/// `convert` writes lists that read back into the same requests: method as written, URL, ordered
/// headers (duplicates kept) and body bytes, through every chain of formats.
final class RoundTripTests: XCTestCase {
    /// Every fixture that loads, with the variables it needs. (`chaining.http` is left out of the
    /// cross-format chains: HAR and curl cannot carry a request that waits for another's response;
    /// `testChainedRequestsAreWrittenWithTheirTemplatesAndAWarning` covers it.)
    private let fixtures: [(path: String, environment: String?)] = [
        ("http/separators-and-names.http", nil), ("http/query-continuation.http", nil), ("http/headers-and-body.http", nil),
        ("http/file-body.http", nil), ("http/file-variables.http", nil), ("http/dynamic-variables.http", nil),
        ("http/options.http", nil), ("http/wire-truth.http", nil), ("env/api.http", "dev"),
        ("har/chrome.har", nil), ("har/mitmproxy.har", nil), ("har/binary-body.har", nil),
        ("curl/chrome-copy-as-curl.curl", nil), ("curl/several-commands.sh", nil), ("curl/unknown-flags.curl", nil),
    ]

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// What a round trip must keep of one request.
    private struct Sent: Equatable, CustomStringConvertible {
        var method: String
        var url: String
        var headers: [HTTPHeader]
        var body: Data?
        var description: String { "\(method) \(url) \(headers) body=\(body.map { "\($0.count) B" } ?? "none")" }
    }

    /// The requests of `list` that do not wait for another's response, resolved.
    private func sent(_ list: RequestList, variables: VariableContext) throws -> [Sent] {
        let resolver = RequestResolver(list: list, variables: variables)
        try resolver.validate()
        return try list.specs.indices.filter { resolver.dependencies(of: $0).isEmpty }.map { index in
            let request = try resolver.resolve(index)
            return Sent(method: request.method, url: request.url.absoluteString, headers: request.headers, body: request.body.data)
        }
    }

    /// Converts `list` to `format` through files in the temp folder (body files included) and reads it back.
    private func convert(_ list: RequestList, variables: VariableContext, to format: RequestListFormat, step: Int) throws -> RequestList {
        let file = directory.appendingPathComponent("step\(step).\(format == .curl ? "curl" : format.rawValue)")
        let converted = try RequestListLoader.convert(list, variables: variables, to: format,
                                                      bodyFilePrefix: file.lastPathComponent + ".body", redaction: nil)
        for body in converted.bodyFiles.files {
            try body.data.write(to: directory.appendingPathComponent(body.name))
        }
        try converted.data.write(to: file)
        return try RequestListLoader.load(path: file.path)
    }

    private func format(of list: RequestList) -> RequestListFormat { list.format }

    func testEveryFixtureSurvivesEveryRoundTrip() throws {
        for fixture in fixtures {
            let original = try Fixtures.load(fixture.path)
            let variables = try VariableContext.load(besides: Fixtures.path(fixture.path), environmentName: fixture.environment,
                                                     commandLine: [:])
            let chains: [[RequestListFormat]] = switch original.format {
            // Postman sends methods upper case (`wHat` goes out as `WHAT`: said when converting, below).
            case .http: [[.har, .http, .har], [.curl, .http, .curl], [.hurl, .http, .hurl]]
                + (fixture.path.contains("wire-truth") ? [] : [[.postman, .http, .postman]])
            case .har: [[.http, .har, .http], [.hurl, .har], [.postman, .har]]
            case .curl: [[.http, .curl, .http], [.hurl, .curl], [.postman, .curl]]
            case .hurl, .postman: [[.http, format(of: original)]]
            }
            // Dynamic variables ({{$uuid}}) resolve anew each time: compare from the first written copy on.
            let isDynamic = ((try? Fixtures.text(fixture.path)) ?? "").contains("{{$")
            let expected = try sent(original, variables: variables)
            XCTAssertFalse(expected.isEmpty, fixture.path)
            for chain in chains {
                var list = original
                var firstCopy: [Sent]?
                for (step, format) in chain.enumerated() {
                    // Variables are resolved once, by the first conversion away from `.http`.
                    list = try convert(list, variables: list.format == .http ? variables : VariableContext(), to: format, step: step)
                    let now = try sent(list, variables: list.format == .http ? variables : VariableContext())
                    let reference = isDynamic ? (firstCopy ?? now) : expected
                    firstCopy = firstCopy ?? now
                    XCTAssertEqual(now.count, reference.count, "\(fixture.path) → \(chain[...step])")
                    for (got, want) in zip(now, reference) {
                        XCTAssertEqual(got, want, "\(fixture.path) → \(chain[...step].map(\.rawValue))")
                    }
                }
            }
        }
    }

    /// Real Postman collections and Hurl files (other people's, `Fixtures/Wild`) written back in
    /// their own format and in the other read back as the same requests.
    func testRealPostmanAndHurlFilesSurviveConversion() throws {
        let wild = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/Wild")
        let files = ["postman/newman__echo-v2.postman_collection.json", "postman/bruno__Basic Auth Folder.postman_collection.json",
                     "postman/tutorials.Identity-Management__FIWARE Identity Management.postman_collection.json",
                     "hurl/api-testing-demo__test.hurl", "hurl/clam__test.hurl", "hurl/language-hurl__body-base64.hurl"]
        for file in files {
            let original = try RequestListLoader.load(path: (wild as NSString).appendingPathComponent(file))
            let expected = try sent(original, variables: VariableContext())
            XCTAssertFalse(expected.isEmpty, file)
            for (step, format) in [RequestListFormat.postman, .hurl, .http].enumerated() {
                let copy = try convert(original, variables: VariableContext(), to: format, step: step)
                let now = try sent(copy, variables: VariableContext())
                XCTAssertEqual(now.count, expected.count, "\(file) → \(format.rawValue)")
                for (got, want) in zip(now, expected) { XCTAssertEqual(got, want, "\(file) → \(format.rawValue)") }
            }
        }
    }

    func testAMethodPostmanWouldUpperCaseIsSaid() throws {
        let list = try Fixtures.load("http/wire-truth.http")
        let converted = try RequestListLoader.convert(list, to: .postman, redaction: nil)
        XCTAssertTrue(converted.warnings.contains { $0.message.contains("'wHat' is written as it is, but Postman sends methods in upper case") },
                      "\(converted.warnings)")
    }

    /// Hurl's checks and captures have no place in .http: converting says so, naming what the
    /// captures set (they went without a word, and the result failed on the unknown variable).
    func testHurlChecksLeftOutOfHTTPAreSaid() throws {
        let list = try RequestListLoader.load(text: """
            POST https://example.org/login
            HTTP 200
            [Captures]
            token: jsonpath "$.token"

            GET https://example.org/me
            Authorization: Bearer {{token}}
            HTTP 200
            """, path: "t.hurl", format: .hurl)
        let converted = try RequestListLoader.convert(list, to: .http, redaction: nil)
        let messages = converted.warnings.map(\.message)
        XCTAssertEqual(messages.filter { $0.hasPrefix("response checks left out: .http cannot carry them") }.count, 2, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("what the captures set (token) stays {{…}}") }, "\(messages)")
        XCTAssertTrue(String(decoding: converted.data, as: UTF8.self).contains("Authorization: Bearer {{token}}"))
    }

    func testHTTPTextRoundTripsKeepTemplatesAndOptions() throws {
        for fixture in ["separators-and-names", "query-continuation", "headers-and-body", "file-variables", "dynamic-variables",
                        "chaining", "options", "wire-truth"] {
            let original = try Fixtures.load("http/\(fixture).http")
            var files = BodyFiles(prefix: "unused")
            let written = HTTPFileWriter.text(for: original, bodyFiles: &files, redaction: nil)
            let reparsed = try HTTPFileParser.parse(text: written, path: Fixtures.path("http/\(fixture)-copy.http"))
            XCTAssertEqual(reparsed.specs.map(\.withoutLocation), original.specs.map(\.withoutLocation), "\(fixture):\n\(written)")
            XCTAssertEqual(reparsed.fileVariables.map(\.value), original.fileVariables.map(\.value))
            XCTAssertTrue(files.files.isEmpty, "text bodies stay inline")
        }
    }

    /// `# @http2`, `--http2-prior-knowledge`, Hurl's `http2: true`: the HTTP version asked for goes
    /// through `.http`, curl and Hurl (which has no prior-knowledge option: it becomes `http2`).
    func testTheHTTPVersionAskedForSurvivesHTTPCurlAndHurl() throws {
        let text = "# @http2-prior-knowledge\nGET http://h.test/a\n\n###\n# @http1.1\nGET https://h.test/b\n\n###\n# @http2\nGET http://h.test/c\n\n###\nGET http://h.test/d\n"
        let list = try HTTPFileParser.parse(text: text, path: directory.appendingPathComponent("versions.http").path)
        let asked: [HTTPRequest.HTTPVersion?] = [.http2PriorKnowledge, .http1_1, .http2, nil]
        XCTAssertEqual(list.specs.map(\.options.httpVersion), asked)
        XCTAssertTrue(list.warnings.isEmpty, "\(list.warnings)")
        for (step, format) in [RequestListFormat.http, .curl].enumerated() {
            let back = try convert(list, variables: VariableContext(), to: format, step: step)
            XCTAssertEqual(back.specs.map(\.options.httpVersion), asked, "\(format)")
        }
        let hurl = try convert(list, variables: VariableContext(), to: .hurl, step: 9)
        XCTAssertEqual(hurl.specs.map(\.options.httpVersion), [.http2, .http1_1, .http2, nil])
    }

    /// Spaces in a URL are written as %20, except inside a `{{ spaced }}` variable, which must read
    /// back as the same variable.
    func testASpacedVariableInTheURLIsWrittenAsItIs() throws {
        let original = try HTTPFileParser.parse(text: "@host = 127.0.0.1:9\nGET http://{{ host }}/a b?q={{ host }}\n", path: "s.http")
        var files = BodyFiles(prefix: "unused")
        let written = HTTPFileWriter.text(for: original, bodyFiles: &files, redaction: nil)
        XCTAssertTrue(written.contains("GET http://{{ host }}/a%20b?q={{ host }}\n"), written)
        let reparsed = try HTTPFileParser.parse(text: written, path: "s-copy.http")
        XCTAssertEqual(try RequestResolver(list: reparsed).resolve(0).url.absoluteString, "http://127.0.0.1:9/a%20b?q=127.0.0.1:9")
    }

    /// A client field left out (`curl -H 'Accept:'`) is written back by the curl writer; the .http
    /// writer, which cannot say it, says so in a comment.
    func testAnOmittedClientFieldIsWrittenBackOrNamed() throws {
        let original = try RequestListLoader.load(text: "curl https://a.test/x -H 'Accept:' -H 'Content-Type:' -H 'X-A: 1'",
                                                  path: "/tmp/omit.curl", format: .curl)
        XCTAssertEqual(original.specs[0].options.omittedHeaders, ["Accept"], "reqtop never adds a Content-Type: nothing to leave out")
        let request = try RequestResolver(list: original).resolve(0)
        var files = BodyFiles(prefix: "unused")
        let command = CurlWriter.command(for: request, bodyFiles: &files, redaction: nil)
        XCTAssertTrue(command.contains("-H 'Accept:'"), command)
        let reread = try RequestListLoader.load(text: command, path: "/tmp/omit-copy.curl", format: .curl)
        XCTAssertEqual(reread.specs[0].options.omittedHeaders, ["Accept"])
        let http = HTTPFileWriter.text(for: original, bodyFiles: &files, redaction: nil)
        XCTAssertTrue(http.contains("# The original goes without the client's own Accept (curl -H 'Accept:')"), http)
    }

    func testRedefinedVariablesAndFormLinesReadBackTheSame() throws {
        let source = """
            @id = 1
            GET https://a.test/{{id}}

            ###
            POST https://a.test/form
            Content-Type: application/x-www-form-urlencoded

            a=1
            &b={{id}}

            @id = 2

            ###
            GET https://a.test/{{id}}
            """
        let original = try HTTPFileParser.parse(text: source, path: Fixtures.path("http/redefined.http"))
        var files = BodyFiles(prefix: "unused")
        let written = HTTPFileWriter.text(for: original, bodyFiles: &files, redaction: nil)
        let reparsed = try HTTPFileParser.parse(text: written, path: Fixtures.path("http/redefined-copy.http"))
        let urls = { (list: RequestList) in try (0..<list.specs.count).map { try RequestResolver(list: list).resolve($0).url.absoluteString } }
        XCTAssertEqual(try urls(reparsed), try urls(original), written)
        XCTAssertEqual(try urls(original), ["https://a.test/1", "https://a.test/form", "https://a.test/2"])
        XCTAssertEqual(try RequestResolver(list: reparsed).resolve(1).body.data, Data("a=1&b=1".utf8), written)
    }

    func testBodyTextThatWouldReadBackDifferentlyGoesToABodyFile() throws {
        for (text, inline) in [("a=1\n&b=2", false), ("line\n# not a comment", false), ("x\n\n@v = 1", false), ("a=1&b=2\nmore", true)] {
            let spec = RequestSpec(method: "POST", url: "https://a.test/", headers: [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                                   body: .text(text))
            var files = BodyFiles(prefix: "body")
            _ = HTTPFileWriter.text(for: spec, isTemplate: false, bodyFiles: &files, redaction: nil)
            XCTAssertEqual(files.files.isEmpty, inline, text)
        }
    }

    func testMethodsAreKeptExactlyAsWritten() throws {
        let list = try Fixtures.load("http/wire-truth.http")
        XCTAssertEqual(list.specs.map(\.method), ["wHat", "PROPFIND", "QUERY", "POST", "MKCOL"])
        let har = try convert(list, variables: VariableContext(), to: .har, step: 0)
        XCTAssertEqual(har.specs.map(\.method), ["wHat", "PROPFIND", "QUERY", "POST", "MKCOL"])
    }

    func testBinaryBodiesAreBase64InHARAndABodyFileInHTTP() throws {
        let har = try Fixtures.load("har/binary-body.har")
        guard case .bytes(let bytes)? = har.specs[0].body else { return XCTFail("expected bytes, got \(String(describing: har.specs[0].body))") }
        XCTAssertEqual(Array(bytes), [0x00, 0xFF, 0x10, 0x80, 0x0A])
        let converted = try RequestListLoader.convert(har, to: .http, bodyFilePrefix: "x", redaction: nil)
        XCTAssertEqual(converted.bodyFiles.files.map(\.name), ["x-1.bin"])
        XCTAssertTrue(String(decoding: converted.data, as: UTF8.self).contains("\n< x-1.bin\n"))
        let back = try RequestListLoader.convert(try convert(har, variables: VariableContext(), to: .http, step: 0),
                                                  to: .har, redaction: nil)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: back.data) as? [String: Any])
        let post = ((((json["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first?["request"] as? [String: Any])?["postData"]
            as? [String: Any])
        XCTAssertEqual(post?["_encoding"] as? String, "base64")
        XCTAssertEqual(post?["text"] as? String, Data([0x00, 0xFF, 0x10, 0x80, 0x0A]).base64EncodedString())
    }

    func testChainedRequestsAreWrittenWithTheirTemplatesAndAWarning() throws {
        let list = try Fixtures.load("http/chaining.http")
        let converted = try RequestListLoader.convert(list, to: .curl, redaction: nil)
        let text = String(decoding: converted.data, as: UTF8.self)
        XCTAssertTrue(text.contains("{{login.response.body"), text)
        XCTAssertTrue(converted.warnings.contains { $0.message.contains("uses the response of login") }, "\(converted.warnings)")
    }
}
