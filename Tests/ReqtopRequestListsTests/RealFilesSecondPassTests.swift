import Foundation
import ReqtopRequestLists
import XCTest

/// The second pass over request lists written by other people (`Fixtures/Wild`, sources in
/// `SOURCES.md`): each class of trouble they showed, checked on the file that showed it.
final class RealFilesSecondPassTests: XCTestCase {
    private func wild(_ relative: String) -> String { Fixtures.path("Wild/" + relative) }

    private func loadError(_ path: String) -> RequestListError? {
        do {
            let list = try RequestListLoader.load(path: path)
            try RequestResolver(list: list).validate()
            XCTFail("expected an error loading \(path)")
            return nil
        } catch {
            return error
        }
    }

    // MARK: 1. HAR as recording tools write it

    /// Polly.JS 4 records `content-length` as a JSON number: read as its text, with one warning naming the path.
    func testPollyNumbersInHeaderValuesAreReadAsTheirText() throws {
        let list = try RequestListLoader.load(path: wild("har/spotify-music-player__recording.har"))
        XCTAssertEqual(list.specs.map(\.method), ["OPTIONS", "GET"])
        XCTAssertEqual(list.specs[0].header(named: "content-length"), "0")
        XCTAssertEqual(list.specs[1].header(named: "authorization").map { $0.hasPrefix("Bearer ") }, true)
        let leniency = list.warnings.filter { $0.message.contains("read as the recording tool meant them") }
        XCTAssertEqual(leniency.count, 1, "one warning for the file: \(list.warnings)")
        XCTAssertTrue(leniency[0].message.contains("log.entries[].request.headers[].value ×"), leniency[0].message)
        XCTAssertTrue(leniency[0].message.contains("numbers and booleans"), leniency[0].message)
    }

    /// Polly.JS 1 records node's header values as arrays: one field per element, as node sent them;
    /// its empty `postData` on a GET adds no Content-Type.
    func testPollyArraysInHeaderValuesAreOneFieldPerElement() throws {
        let list = try RequestListLoader.load(path: wild("har/pollyjs__recording.har"))
        XCTAssertEqual(list.specs.count, 1)
        let spec = list.specs[0]
        XCTAssertEqual(spec.header(named: "accept"), "*/*")
        XCTAssertEqual(spec.header(named: "user-agent"), "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)")
        XCTAssertNil(spec.header(named: "Content-Type"), "a GET with an empty postData has no body to type")
        XCTAssertNil(spec.body)
        XCTAssertTrue(list.warnings.contains { $0.message.contains("arrays as one field per element") }, "\(list.warnings)")
    }

    /// chrome-har writes objects in `postData.params[].value` (no such file was found in a public
    /// repository with a licence: built from chrome-har's output shape): sent as JSON text; a
    /// null header value, which cannot be sent, still refuses the archive, naming the member.
    func testObjectsInParamsAreSentAsJSONAndWhatCannotBeSentIsRefused() throws {
        let har = """
            {"log": {"entries": [{"request": {"method": "POST", "url": "http://h.test/form", "headers": [],
              "postData": {"mimeType": "application/x-www-form-urlencoded",
                           "params": [{"name": "filter", "value": {"a": [1, true]}}, {"name": "n", "value": 5}]}}}]}}
            """
        let list = try RequestListLoader.load(text: har, path: "chrome.har", format: .har)
        XCTAssertEqual(list.specs[0].body, .form([FormField(name: "filter", value: #"{"a":[1,true]}"#), FormField(name: "n", value: "5")]))
        XCTAssertTrue(list.warnings.contains { $0.message.contains("log.entries[].request.postData.params[].value ×1 (objects") }, "\(list.warnings)")
        let refused = har.replacingOccurrences(of: #""headers": []"#, with: #""headers": [{"name": "X", "value": null}]"#)
        XCTAssertThrowsError(try RequestListLoader.load(text: refused, path: "chrome.har", format: .har)) { error in
            XCTAssertTrue("\(error)".contains("log.entries[0].request.headers[0].value: expected a string, found null"), "\(error)")
        }
    }

    // MARK: 2. An error quotes at most a line

    /// A real HAR minified to one line (as exporters write them) with one bad member: the error
    /// quotes 200 characters around it, the caret under the offending value.
    func testAnErrorInAOneLineFileQuotesAWindowOfTheLine() throws {
        let original = try String(contentsOfFile: wild("har/spotify-music-player__recording.har"), encoding: .utf8)
        let json = try JSONSerialization.jsonObject(with: Data(original.utf8))
        var oneLine = String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
        oneLine = oneLine.replacingOccurrences(of: #""method":"GET""#, with: #""method":404"#)
        XCTAssertGreaterThan(oneLine.count, 2000)
        XCTAssertThrowsError(try RequestListLoader.load(text: oneLine, path: "min.har", format: .har)) { thrown in
            let error = thrown as! RequestListError
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(lines.count, 3, error.description)
            XCTAssertTrue(lines[0].contains("log.entries[1].request.method"), lines[0])
            XCTAssertLessThanOrEqual(lines[1].count, 200)
            XCTAssertTrue(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"), lines[1])
            // The caret points at the same character as the column does in the whole line.
            let caret = lines[2].count - 1
            let pointed = Array(lines[1])[caret]
            XCTAssertEqual(pointed, Array(oneLine)[error.column - 1])
            XCTAssertTrue(lines[1].contains(#""method":404"#), lines[1])
        }
    }

    /// A value quoted in a message is cut too (a URL of thousands of characters).
    func testAValueQuotedInAMessageIsCutAt200Characters() throws {
        let long = "http://h.test/" + String(repeating: "a", count: 5000)
        let unresolvable = try RequestListLoader.load(text: "GET {{u}}\n", path: "u.http", format: .http)
        XCTAssertThrowsError(try RequestResolver(list: unresolvable, variables: VariableContext(commandLine: ["u": "ftp://" + long])).resolve(0)) {
            let message = ($0 as! RequestListError).message
            XCTAssertTrue(message.contains("…'"), message)
            XCTAssertLessThan(message.count, 400, message)
        }
    }

    // MARK: 3. Variable names as the tools allow them

    /// Spring-Cloud-Demo's env file names its variables `host-config`, `host-auth`.
    func testHyphenatedNamesFromAnEnvironmentFileResolve() throws {
        let path = wild("http/Spring-Cloud-Demo/scratch.http")
        let list = try RequestListLoader.load(path: path)
        let variables = try VariableContext.load(besides: path, environmentName: "direct-local")
        let resolver = RequestResolver(list: list, variables: variables)
        try resolver.validate()
        XCTAssertEqual(try list.specs.indices.map { try resolver.resolve($0).url.absoluteString }, [
            "http://localhost:8301/actuator/bus-refresh", "http://localhost:8401/auth-center/login",
            "http://localhost:8401/auth-center/client", "http://localhost:8401/auth-center/client",
        ])
    }

    /// The env file of a project is used from a folder below it (the JetBrains client reads a
    /// project's env files wherever they are): the nearest one above, up to the repository root.
    func testAnEnvFileInAFolderAboveIsUsedUpToTheRepositoryRoot() throws {
        let root = NSTemporaryDirectory() + "reqtop-env-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/project/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/project/api/requests", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: wild("http/Spring-Cloud-Demo/http-client.env.json"), toPath: root + "/project/http-client.env.json")
        let path = root + "/project/api/requests/scratch.http"
        try FileManager.default.copyItem(atPath: wild("http/Spring-Cloud-Demo/scratch.http"), toPath: path)
        let list = try RequestListLoader.load(path: path)
        let resolver = RequestResolver(list: list, variables: try VariableContext.load(besides: path, environmentName: "gateway-local"))
        XCTAssertEqual(try resolver.resolve(1).url.absoluteString, "http://localhost:8201/auth-center/login")
        // Not past the repository root: an env file above it belongs to something else.
        try FileManager.default.moveItem(atPath: root + "/project/http-client.env.json", toPath: root + "/http-client.env.json")
        XCTAssertThrowsError(try VariableContext.load(besides: path, environmentName: "gateway-local"))
        // Outside a repository, nothing above the file's own folder is read.
        try FileManager.default.removeItem(atPath: root + "/project/.git")
        try FileManager.default.moveItem(atPath: root + "/http-client.env.json", toPath: root + "/project/api/http-client.env.json")
        XCTAssertThrowsError(try VariableContext.load(besides: path, environmentName: "gateway-local"))
    }

    /// A `{{…}}` that a value brings into the URL or a header is not sent, saying so; the rest runs.
    func testAPlaceholderLeftAfterSubstitutionIsNotSent() throws {
        let list = try RequestListLoader.load(text: "GET http://h.test/ok\n\n###\nGET http://h.test/{{id}}\n\n###\nGET http://h.test/x\nX-Token: {{t}}\n",
                                              path: "left.http", format: .http)
        let resolver = RequestResolver(list: list, variables: VariableContext(commandLine: ["id": "{{demo-service}}", "t": "a {{b}}"]))
        try resolver.validate()
        XCTAssertEqual(try resolver.resolve(0).url.absoluteString, "http://h.test/ok")
        for (index, place, text) in [(1, "URL", "{{demo-service}}"), (2, "X-Token header", "{{b}}")] {
            XCTAssertThrowsError(try resolver.resolve(index)) {
                let error = $0 as! RequestListError
                XCTAssertTrue(error.needsRequestScript, "not sent, the rest runs")
                XCTAssertTrue(error.message.contains("the \(place) still holds '\(text)'"), error.message)
            }
        }
        // HAR and curl have no variables: their `{{…}}` goes out as written, with a warning.
        let curl = try RequestListLoader.load(text: "curl http://h.test/{{token}}\n", path: "p.curl", format: .curl)
        XCTAssertEqual(curl.specs[0].url, "http://h.test/{{token}}")
        XCTAssertTrue(curl.warnings.contains { $0.message.contains("'{{token}}' in the URL is sent as written") }, "\(curl.warnings)")
    }

    // MARK: 4. curl in shell loops

    /// apisix's health check: a loop over a declared array (curl inside `if [[ $(…) ]]`) and one over
    /// `{1..7..1}`: one request per iteration, in order.
    func testLoopsOverADeclaredArrayAndABraceRangeAreExpanded() throws {
        let list = try RequestListLoader.load(path: wild("scripts/apisix__nacos-service-healthcheck.sh"))
        let base = "http://nacos2:8848/nacos/v1/ns/service/list?"
        XCTAssertEqual(list.specs.map(\.url), [
            base + "pageNo=1&pageSize=2", base + "groupName=test_group&pageNo=1&pageSize=2",
            base + "groupName=DEFAULT_GROUP&namespaceId=test_ns&pageNo=1&pageSize=2",
            base + "groupName=test_group&namespaceId=test_ns&pageNo=1&pageSize=2",
        ] + (1...7).map { "http://nacos-service\($0):18001/hello" })
        XCTAssertTrue(list.warnings.contains { $0.message.hasPrefix("curl inside a command substitution") && $0.location?.line == 30 })
    }

    /// semanticMediator: `declare -a arr=(…)` and `for i in "${arr[@]}"`, the URL in curl's glob braces.
    func testALoopOverADeclaredArrayWithGlobBraces() throws {
        let list = try RequestListLoader.load(path: wild("scripts/semanticMediator__cache-missing.sh"))
        let words = ["dog", "cat", "fish", "bird", "love", "dance", "bamos", "ciao", "ptica", "privet", "food", "bamboo", "flower",
                     "deep", "clear", "rain", "sun", "peace", "mission", "chance"]
        XCTAssertEqual(Array(list.specs.map(\.url).prefix(words.count)),
                       words.map { "https://m2.audiocommons.org/api/audioclips/search?pattern=\($0)" })
    }

    /// envoy's example: ports from `${VAR:-default}`, curl in `$(…)` inside `for i in {1..2}`.
    func testDefaultsInParameterExpansionAndLoopsOverRanges() throws {
        let list = try RequestListLoader.load(path: wild("scripts/examples__verify.sh"))
        XCTAssertEqual(list.specs.map(\.url), Array(repeating: "http://localhost:11210", count: 5)
            + Array(repeating: "http://localhost:11211/stats/prometheus", count: 5) + Array(repeating: "http://localhost:11212/stats/prometheus", count: 5))
    }

    /// A loop over command output (`$(seq …)`, backticks) cannot be known without running it: an error at the loop's line.
    func testALoopOverCommandOutputIsRefusedAtItsLine() throws {
        let cases = [("scripts/apisix__init-common-test-service.sh", 20, "command output $(seq 1 30)"),
                     ("scripts/semanticMediator__cache-hitting.sh", 6, "command output `seq 1 10`")]
        for (file, line, what) in cases {
            let error = try XCTUnwrap(loadError(wild(file)), file)
            XCTAssertEqual(error.line, line, error.description)
            XCTAssertTrue(error.message.hasPrefix("curl inside a loop over \(what): not replayable"), error.message)
        }
    }

    func testLiteralWordListsAndGlobsAsBashReadsThem() throws {
        let script = """
            HOST=http://h.test
            LIST="x y"
            for w in a "b;c" $LIST; do curl "$HOST/$w"; done
            for f in *.json; do curl -d @$f $HOST/upload; done
            """
        XCTAssertThrowsError(try RequestListLoader.load(text: script, path: "s.sh", format: .curl)) {
            let error = $0 as! RequestListError
            XCTAssertEqual(error.line, 4)
            XCTAssertTrue(error.message.hasPrefix("curl inside a loop over the files of a glob (*.json)"), error.message)
        }
        let literal = try RequestListLoader.load(text: script.split(separator: "\n").prefix(3).joined(separator: "\n"), path: "s.sh", format: .curl)
        XCTAssertEqual(literal.specs.map(\.url), ["http://h.test/a", "http://h.test/b;c", "http://h.test/x", "http://h.test/y"])
    }

    /// Bash's rules where scripts lean on them: `done` as an argument does not end a loop; a
    /// default's quotes are removed and what it uses is checked like any expansion; absurd ranges
    /// and loops that multiply past the limit are refused, never a trap or an endless read.
    func testShellEdgesAreReadAsBashReadsThem() throws {
        let done = try RequestListLoader.load(text: "for i in 1 2; do echo done; curl http://h.test/$i; done\n", path: "d.sh", format: .curl)
        XCTAssertEqual(done.specs.map(\.url), ["http://h.test/1", "http://h.test/2"])
        let quoted = try RequestListLoader.load(text: #"curl "${BASE:-"http://h.test:8080"}/health" -H "X: ${N:-'a b'}""# + "\n", path: "q.sh", format: .curl)
        XCTAssertEqual(quoted.specs.map(\.url), ["http://h.test:8080/health"])
        XCTAssertEqual(quoted.specs.first?.header(named: "X"), "a b")
        XCTAssertThrowsError(try RequestListLoader.load(text: "TOKEN=$(cat t)\ncurl -H \"Authorization: Bearer ${API:-$TOKEN}\" http://h.test/x\n",
                                                        path: "t.sh", format: .curl)) {
            XCTAssertTrue(($0 as! RequestListError).message.contains("$TOKEN is set at line 1 by a command substitution"), "\($0)")
        }
        let hugeStep = try RequestListLoader.load(text: "for i in {1..2..-9223372036854775808}; do curl http://h.test/$i; done\n", path: "h.sh", format: .curl)
        XCTAssertEqual(hugeStep.specs.map(\.url), ["http://h.test/1"], "bash steps by the size of the increment")
        for absurd in ["for i in {-9223372036854775808..1}; do curl http://h.test/$i; done",
                       "for a in {1..400}; do for b in {1..400}; do curl http://h.test/$a/$b; done; done"] {
            XCTAssertThrowsError(try RequestListLoader.load(text: absurd + "\n", path: "a.sh", format: .curl), absurd)
        }
        let stepped = try RequestListLoader.load(text: "curl 'http://h.test/[1-2:1000000000000000]'\n", path: "s.curl", format: .curl)
        XCTAssertEqual(stepped.specs.map(\.url), ["http://h.test/1"])
    }

    // MARK: 5. URLs as curl reads them

    /// trace4cats' comments: `http:///localhost:8080/…`, which curl sends to localhost:8080.
    func testThreeSlashURLsAreReadAsCurlReadsThem() throws {
        let list = try RequestListLoader.load(path: wild("curl/trace4cats__DynamicSampling.curl"))
        XCTAssertEqual(list.specs.map(\.url), [
            "http://localhost:8080/trace4cats/config", "http://localhost:8080/trace4cats/config",
            "http://localhost:8080/trace4cats/killswitch", "http://localhost:8080/trace4cats/config",
            "http://localhost:8080/trace4cats/config",
        ])
        XCTAssertEqual(list.warnings.filter { $0.message.contains("curl reads the URL 'http:///localhost:8080/") }.count, 5, "\(list.warnings)")
        // What curl refuses is refused with curl's reason; globbing follows curl.
        XCTAssertThrowsError(try RequestListLoader.load(text: "curl 'http://h.test/a b'\n", path: "x.curl", format: .curl)) {
            XCTAssertTrue(($0 as! RequestListError).message.hasPrefix("curl refuses this URL"), "\($0)")
        }
        let globbed = try RequestListLoader.load(text: "curl 'http://h.test/{a,b}/[1-2]'\ncurl -g 'http://h.test/[x]'\n", path: "g.curl", format: .curl)
        XCTAssertEqual(globbed.specs.map(\.url), ["http://h.test/a/1", "http://h.test/a/2", "http://h.test/b/1", "http://h.test/b/2", "http://h.test/[x]"])
    }

    // MARK: 6. An unknown format says so

    func testOtherToolsFormatsAreReadOrNamed() throws {
        // Postman, Insomnia v4 JSON, Hurl and Bruno are read (their own tests); a Hurl file is told
        // from its content too, and a format reqtop does not read (OpenAPI) is named.
        XCTAssertFalse(try RequestListLoader.load(path: wild("formats/bruno__query-email-plus.bru")).specs.isEmpty)
        XCTAssertFalse(try RequestListLoader.load(path: wild("formats/hurl__post_json.hurl")).specs.isEmpty)
        let copy = NSTemporaryDirectory() + "/reqtop-format-\(UUID().uuidString).req"
        try FileManager.default.copyItem(atPath: wild("formats/hurl__post_json.hurl"), toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        XCTAssertTrue(try RequestListLoader.load(path: copy).specs.contains { $0.checks != nil }, "read as Hurl by its content")
        XCTAssertFalse(try RequestListLoader.load(path: wild("insomnia/nestjs-libs-example__insomnia.yaml")).specs.isEmpty)
        let openAPI = NSTemporaryDirectory() + "/reqtop-format-\(UUID().uuidString).yaml"
        try "openapi: 3.0.0\ninfo:\n  title: x\npaths: {}\n".write(toFile: openAPI, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: openAPI) }
        let error = try XCTUnwrap(loadError(openAPI))
        XCTAssertTrue(error.message.hasPrefix("this looks like an OpenAPI document (YAML); reqtop reads .http"), error.message)
        XCTAssertLessThan(error.description.count, 600, "no file dumped into the message: \(error.description)")
    }
}
