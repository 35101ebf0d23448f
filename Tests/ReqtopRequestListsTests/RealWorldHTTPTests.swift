import Foundation
import ReqtopRequestLists
import XCTest

/// `.http` files as people write them for the JetBrains HTTP Client and VS Code REST Client.
final class RealWorldHTTPTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes `text` as `name` in the temp folder and loads it.
    private func load(_ text: String, name: String = "api.http", variables: [String: String] = [:]) throws -> (RequestList, RequestResolver) {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let list = try RequestListLoader.load(path: path)
        let resolver = RequestResolver(list: list, variables: VariableContext(commandLine: variables))
        try resolver.validate()
        return (list, resolver)
    }

    private func file(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    func testAByteOrderMarkIsNotPartOfTheFirstLine() throws {
        let (list, _) = try load("\u{FEFF}GET https://api.example.org/x\n")
        XCTAssertEqual(list.specs.first?.url, "https://api.example.org/x")
    }

    func testSpacedVariablesWorkInTheRequestLineAndEverywhere() throws {
        let (_, resolver) = try load("@host = https://api.example.org\n\nGET {{ host }}/get?v={{  host  }}\nX-H: {{ host }}\n")
        let request = try resolver.resolve(0)
        XCTAssertEqual(request.url.absoluteString, "https://api.example.org/get?v=https://api.example.org")
        XCTAssertEqual(request.header(named: "X-H"), "https://api.example.org")
    }

    func testCommentLinesInABodyAreNotSent() throws {
        let (_, resolver) = try load("""
            POST https://api.example.org/items
            Content-Type: application/json

            // the item to create
            # (JetBrains and REST Client comments)
            {
              "name": "x"
            }
            """)
        XCTAssertEqual(String(decoding: try resolver.resolve(0).body.data ?? Data(), as: UTF8.self), "{\n  \"name\": \"x\"\n}")
    }

    func testMultiLineTargetsOriginFormAndHeaderContinuations() throws {
        let (_, resolver) = try load("""
            GET https://api.example.org
                /users
                /42
                ?fields=name
                &sort=asc
            Accept: application/json

            ###
            GET /api/health?x=1
            Host: internal.example.org:8080
            X-Long: first part
              second part
            """)
        XCTAssertEqual(try resolver.resolve(0).url.absoluteString, "https://api.example.org/users/42?fields=name&sort=asc")
        let origin = try resolver.resolve(1)
        XCTAssertEqual(origin.url.absoluteString, "http://internal.example.org:8080/api/health?x=1")
        XCTAssertEqual(origin.header(named: "X-Long"), "first part second part")
    }

    func testHttpyacBlockCommentsAreCommentsBeforeARequestAndAmongItsHeaders() throws {
        let (list, resolver) = try load("""
            /*
            # Docs in Markdown
            GET https://not.a.request/
            */
            /* one line */
            POST https://api.example.org/items
            /* among the headers
               over two lines */
            Content-Type: text/plain

            /* a body line, sent as written */
            """)
        XCTAssertEqual(list.specs.count, 1)
        let request = try resolver.resolve(0)
        XCTAssertEqual(request.url.absoluteString, "https://api.example.org/items")
        XCTAssertEqual(request.headers.map(\.name), ["Content-Type"])
        XCTAssertEqual(request.body.data.map { String(decoding: $0, as: UTF8.self) }, "/* a body line, sent as written */")
    }

    func testABlockCommentAfterTheRequestLineIsNotPartOfTheURLAndAnIndentedOneInHeadersContinuesAValue() throws {
        let (_, resolver) = try load("""
            GET https://api.example.org/items
              /* not a path segment */
            Accept: text/plain,
              /*-ish
            """)
        let request = try resolver.resolve(0)
        XCTAssertEqual(request.url.absoluteString, "https://api.example.org/items")
        XCTAssertEqual(request.header(named: "Accept"), "text/plain, /*-ish")
    }

    func testABlockCommentThatIsNotClosedOrHasTextAfterItsEndIsAnError() throws {
        XCTAssertThrowsError(try load("GET https://a.test/1\n\n###\n  /* open\nGET https://a.test/2\n\n###\nGET https://a.test/3\n")) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.line, 4)
            XCTAssertEqual(error?.column, 3)
            XCTAssertTrue(error?.message.contains("not closed with '*/'") == true, error?.message ?? "")
        }
        XCTAssertThrowsError(try load("/* note\n*/ GET https://a.test/\n")) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.line, 2)
            XCTAssertEqual(error?.column, 4)
            XCTAssertTrue(error?.message.contains("text after '*/'") == true, error?.message ?? "")
        }
        XCTAssertThrowsError(try load("  /* note */ GET https://a.test/   \n")) { error in
            XCTAssertEqual((error as? RequestListError)?.column, 14, "the column of the text, whatever trails the line")
        }
        XCTAssertThrowsError(try load("/* open\nGET https://a.test/\n")) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("or the end of the file") == true)
        }
    }

    func testAnHttpyacRecordedResponseIsSkippedWithAWarningNamingItsLines() throws {
        let (list, resolver) = try load("""
            POST https://api.example.org/items
            Content-Type: application/json

            {"name": "a"}

            HTTP/1.1 201 - Created
            content-type: application/json

            {"id": 1}

            ###
            GET https://api.example.org/items/1
            HTTP/2 200
            x: y
            ###
            POST https://api.example.org/echo
            Content-Type: text/plain

            HTTP/1.1 is what this line talks about
            """)
        XCTAssertEqual(list.specs.count, 3)
        XCTAssertEqual(try resolver.resolve(0).body.data.map { String(decoding: $0, as: UTF8.self) }, #"{"name": "a"}"#)
        let second = try resolver.resolve(1)
        XCTAssertEqual(second.headers.count, 0)
        XCTAssertNil(second.body.data)
        XCTAssertEqual(try resolver.resolve(2).body.data.map { String(decoding: $0, as: UTF8.self) }, "HTTP/1.1 is what this line talks about")
        XCTAssertEqual(list.warnings.map(\.location?.line), [6, 13])
        XCTAssertTrue(list.warnings[0].message.contains("recorded response (lines 6–9) skipped"), list.warnings[0].message)
        XCTAssertTrue(list.warnings[1].message.contains("recorded response (lines 13–14) skipped"), list.warnings[1].message)
    }

    func testOriginFormWithoutAHostSaysWhatToDo() throws {
        XCTAssertThrowsError(try load("@host = http://x.test\n\nGET /api\n")) { error in
            let message = (error as? RequestListError)?.message ?? ""
            XCTAssertTrue(message.contains("add a 'Host:' header") && message.contains("httpyac"), message)
        }
    }

    func testFileBodiesWithVariablesAndMultipartFileParts() throws {
        try file("in.json", #"{"user": "{{user}}"}"#)
        try file("photo.bin", "PNG\u{0}\u{1}")
        let (_, resolver) = try load("""
            @user = ada

            POST https://api.example.org/json
            Content-Type: application/json

            <@ ./in.json

            ###
            POST https://api.example.org/upload
            Content-Type: multipart/form-data; boundary=abcd

            --abcd
            Content-Disposition: form-data; name="title"

            {{user}}
            --abcd
            Content-Disposition: form-data; name="file"; filename="photo.bin"
            Content-Type: application/octet-stream

            < ./photo.bin
            --abcd--
            """)
        XCTAssertEqual(String(decoding: try resolver.resolve(0).body.data ?? Data(), as: UTF8.self), #"{"user": "ada"}"#)
        let multipart = String(decoding: try resolver.resolve(1).body.data ?? Data(), as: UTF8.self)
        XCTAssertEqual(multipart, "--abcd\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nada\r\n--abcd\r\n"
                       + "Content-Disposition: form-data; name=\"file\"; filename=\"photo.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                       + "PNG\u{0}\u{1}\r\n--abcd--")
    }

    /// Scripts are kept for the runner; a resolver that does not run them (dry run, convert) refuses
    /// the request that needs what only a script sets, saying which script; `>>` is skipped with a warning.
    func testScriptsAreKeptAndWhatNeedsThemIsNotSentWithoutThem() throws {
        let (list, resolver) = try load("""
            < {%
              request.variables.set("nonce", "42")
            %}
            POST https://api.example.org/login

            {"user": "ada"}

            > {%
              client.test("ok", () => client.assert(response.status === 200));
              client.global.set("token", response.body.token);
            %}

            ###
            GET https://api.example.org/me
            Authorization: Bearer {{token}}

            > ./check.js
            >> ./out.json

            ###
            GET https://api.example.org/public
            """)
        XCTAssertEqual(list.specs.count, 3)
        XCTAssertEqual(list.specs[0].scripts.map(\.kind), [.preRequest, .responseHandler])
        XCTAssertEqual(list.specs[0].scripts[1].setVariables, ["token"])
        XCTAssertEqual(list.specs[1].scripts.map(\.kind), [.responseHandler, .outputRedirect])
        XCTAssertEqual(list.warnings.map { $0.location?.line }, [18], "only the '>>' is skipped: \(list.warnings)")
        XCTAssertEqual(String(decoding: try resolver.resolve(0).body.data ?? Data(), as: UTF8.self), #"{"user": "ada"}"#)
        XCTAssertThrowsError(try resolver.resolve(1)) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.needsRequestScript, true)
            XCTAssertTrue(error?.message.contains("{{token}}") == true && error?.message.contains("api.http:8:") == true, error?.message ?? "")
        }
        XCTAssertEqual(try resolver.resolve(2).url.absoluteString, "https://api.example.org/public")
    }

    /// A variable no one defines may be set by a script file reqtop does not read (`> ./login.js`):
    /// the request is not sent, saying so. Inline code (an httpyac `{{ … }}` block of one line) is no
    /// file: the variable is unknown, and the error says where to define it.
    func testOnlyAScriptThatNamesAFileMaySetAnUnknownVariable() throws {
        let withFile = try HTTPFileParser.parse(text: """
            POST https://api.example.org/login

            > ./login.js

            ###
            GET https://api.example.org/me
            Authorization: Bearer {{token}}
            """, path: "file.http")
        XCTAssertThrowsError(try RequestResolver(list: withFile).resolve(1)) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.needsRequestScript, true)
            XCTAssertTrue(error?.message.contains("the script file './login.js'") == true, error?.message ?? "")
        }
        let inline = try HTTPFileParser.parse(text: """
            {{
              $global.x = 1
            }}
            GET https://api.example.org/me
            Authorization: Bearer {{token}}
            """, path: "inline.http")
        XCTAssertThrowsError(try RequestResolver(list: inline).resolve(0)) { error in
            let error = error as? RequestListError
            XCTAssertNotEqual(error?.needsRequestScript, true)
            XCTAssertTrue(error?.message.contains("unknown variable 'token'") == true, error?.message ?? "")
        }
    }

    func testFileVariablesArePositional() throws {
        let (_, resolver) = try load("""
            GET https://api.example.org/first/{{id}}

            ###
            @id = 1
            GET https://api.example.org/a/{{id}}

            ###
            @id = 2
            @path = /b/{{id}}
            GET https://api.example.org{{path}}

            ###
            @path = {{path}}/v2
            GET https://api.example.org{{path}}
            """)
        XCTAssertEqual(try resolver.resolve(0).url.absoluteString, "https://api.example.org/first/1", "defined only below: the first definition")
        XCTAssertEqual(try resolver.resolve(1).url.absoluteString, "https://api.example.org/a/1")
        XCTAssertEqual(try resolver.resolve(2).url.absoluteString, "https://api.example.org/b/2", "the latest definition above")
        XCTAssertEqual(try resolver.resolve(3).url.absoluteString, "https://api.example.org/b/2/v2", "a redefinition may use the one before it")
    }

    func testVariablesAfterABodyAreFileVariablesNotBodyText() throws {
        let (list, resolver) = try load("""
            POST https://api.example.org/token

            {"user": "ada"}

            @token = abc

            ###
            GET https://api.example.org/me
            Authorization: Bearer {{token}}
            """)
        XCTAssertEqual(list.fileVariables.map(\.name), ["token"])
        XCTAssertEqual(list.fileVariables.first?.location.line, 5)
        XCTAssertEqual(String(decoding: try resolver.resolve(0).body.data ?? Data(), as: UTF8.self), #"{"user": "ada"}"#)
        XCTAssertEqual(try resolver.resolve(1).header(named: "Authorization"), "Bearer abc")
    }

    func testFormFieldLinesStartingWithAnAmpersandJoinThePreviousLine() throws {
        let (_, resolver) = try load("""
            POST https://api.example.org/token
            Content-Type: application/x-www-form-urlencoded

            grant_type=password
            &client_id={{client}}
              &scope=openid profile

            ###
            POST https://api.example.org/text
            Content-Type: text/plain

            a=1
            &b=2
            """, variables: ["client": "web"])
        XCTAssertEqual(String(decoding: try resolver.resolve(0).body.data ?? Data(), as: UTF8.self),
                       "grant_type=password&client_id=web&scope=openid profile")
        XCTAssertEqual(String(decoding: try resolver.resolve(1).body.data ?? Data(), as: UTF8.self), "a=1\n&b=2", "only forms join")
    }

    func testAVariableTheRequestsOwnPreRequestScriptSetsIsNotSent() throws {
        let (_, resolver) = try load("""
            < {%
              request.variables.set("url", "https://api.example.org/x?" + Date.now());
            %}
            GET {{url}}

            ###
            @url = https://api.example.org/y
            GET {{url}}
            """)
        XCTAssertThrowsError(try resolver.resolve(0)) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.needsRequestScript, true, "the script would override @url: \(String(describing: error))")
        }
        XCTAssertEqual(try resolver.resolve(1).url.absoluteString, "https://api.example.org/y")
    }

    func testDirectivesThatSetVariablesAreSkippedAndWhatNeedsThemIsNotSent() throws {
        let (list, resolver) = try load("""
            # @env-stdin-cmd JWT_CONTEXT jq -r '.json.token'
            POST https://api.example.org/chain_1

            {"token": "t"}

            ###
            # @prompt otp One-time password
            # @secret password
            POST https://api.example.org/chain_2

            {"context": "{{JWT_CONTEXT}}", "otp": "{{otp}}", "password": "{{password}}"}
            """)
        XCTAssertEqual(list.specs.map { $0.scripts.map(\.kind) }, [[.variableDirective], [.variableDirective, .variableDirective]])
        XCTAssertEqual(list.specs.flatMap { $0.scripts.flatMap(\.setVariables) }, ["JWT_CONTEXT", "otp", "password"])
        XCTAssertTrue(list.warnings.contains { $0.message.contains("@env-stdin-cmd") && $0.message.contains("{{JWT_CONTEXT}}") }, "\(list.warnings)")
        XCTAssertEqual(try resolver.resolve(0).url.absoluteString, "https://api.example.org/chain_1")
        XCTAssertThrowsError(try resolver.resolve(1)) { error in
            XCTAssertEqual((error as? RequestListError)?.needsRequestScript, true, "\(error)")
        }
    }

    func testWhatOtherDialectsEvaluateIsNotSentAndTheRestRuns() throws {
        let (list, resolver) = try load("""
            import ./chain.http
            run #login

            ###
            # @name one
            POST https://api.example.org/one

            {"a": 1}

            ###
            POST https://api.example.org/two

            {"copy": "{{one.request.body.$.a}}", "js": {{JSON.stringify(one)}}}

            ###
            GET https://api.example.org/three
            Authorization: {{$auth.token("main")}}

            ###
            GET https://api.example.org/four
            """)
        XCTAssertEqual(list.warnings.map(\.location?.line), [1, 2])
        XCTAssertTrue(list.warnings[0].message.contains("does not import"), "\(list.warnings)")
        XCTAssertEqual(list.specs.count, 4)
        for (index, expected) in [(1, "refers to what 'one' sent"), (2, "OAuth 2.0 token")] {
            XCTAssertThrowsError(try resolver.resolve(index)) { error in
                let error = error as? RequestListError
                XCTAssertEqual(error?.needsRequestScript, true)
                XCTAssertTrue(error?.message.contains(expected) == true, error?.message ?? "")
            }
        }
        XCTAssertEqual(try resolver.resolve(3).url.absoluteString, "https://api.example.org/four")
    }

    func testLoopsAndTokensOfOtherClientsAreNotSentWithTheReason() throws {
        let (list, resolver) = try load("""
            # @loop for item of data
            GET https://api.example.org/items/{{item}}

            ###
            # @loop for 3
            GET https://api.example.org/three

            ###
            GET https://api.example.org/azure
            Authorization: {{$aadToken new}}
            """)
        XCTAssertEqual(list.specs[0].scripts.flatMap(\.setVariables), ["item"])
        XCTAssertEqual(list.specs[1].scripts.flatMap(\.setVariables), [])
        XCTAssertTrue(list.warnings.contains { $0.message.contains("sent once") }, "\(list.warnings)")
        XCTAssertEqual(try resolver.resolve(1).url.absoluteString, "https://api.example.org/three")
        for index in [0, 2] {
            XCTAssertThrowsError(try resolver.resolve(index)) { error in
                XCTAssertEqual((error as? RequestListError)?.needsRequestScript, true, "\(error)")
            }
        }
    }

    func testAnExpressionInBracesIsNamedAsOne() throws {
        let (_, resolver) = try load("@one = 1\nPOST https://api.example.org/x\n\n{{JSON.stringify(one)}}\n")
        XCTAssertThrowsError(try resolver.resolve(0)) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("is an expression") == true, "\(error)")
        }
    }

    func testAGraphQLFragmentOutsideARequestSaysWhatItIs() {
        XCTAssertThrowsError(try load("fragment Parts on Repository {\n  name\n}\n\nGRAPHQL https://api.example.org/graphql\n\nquery { a }\n")) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.line, 1)
            XCTAssertTrue(error?.message.contains("GraphQL fragment") == true, "\(String(describing: error))")
        }
    }

    func testAVariableOnlyAScriptFileCouldSetIsNotSentWithThatReason() throws {
        let (_, resolver) = try load("""
            < ./pre.js
            POST https://api.example.org/a

            {"v": "{{fromScript}}"}

            ###
            GET https://api.example.org/b
            """)
        XCTAssertThrowsError(try resolver.resolve(0)) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("'./pre.js'") == true, "\(error)")
        }
        XCTAssertEqual(try resolver.resolve(1).url.absoluteString, "https://api.example.org/b", "the rest of the list runs")
    }

    func testGraphQLIsSentAsJSONWithItsVariables() throws {
        let (_, resolver) = try load("""
            GRAPHQL https://api.example.org/graphql

            query Items($n: Int) { items(first: $n) { id } }

            {"n": 3}

            ###
            POST https://api.example.org/graphql
            X-REQUEST-TYPE: GraphQL

            query { me { id } }
            """)
        let jetbrains = try resolver.resolve(0)
        XCTAssertEqual(jetbrains.method, "POST")
        XCTAssertEqual(jetbrains.header(named: "Content-Type"), "application/json")
        XCTAssertEqual(String(decoding: jetbrains.body.data ?? Data(), as: UTF8.self),
                       #"{"query":"query Items($n: Int) { items(first: $n) { id } }","variables":{"n":3}}"#)
        let restClient = try resolver.resolve(1)
        XCTAssertNil(restClient.header(named: "X-REQUEST-TYPE"))
        XCTAssertEqual(String(decoding: restClient.body.data ?? Data(), as: UTF8.self), #"{"query":"query { me { id } }"}"#)
    }

    /// The request's own `Content-Type: application/graphql` says the body is the query document:
    /// it goes as that (a JSON envelope under that type would not be read); with variables, an error.
    func testAnApplicationGraphQLRequestSendsTheQueryItself() throws {
        let (_, resolver) = try load("""
            GRAPHQL https://api.example.org/graphql
            Content-Type: application/graphql

            query { me { id } }
            """)
        let request = try resolver.resolve(0)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.header(named: "Content-Type"), "application/graphql")
        XCTAssertEqual(String(decoding: request.body.data ?? Data(), as: UTF8.self), "query { me { id } }")
        let (_, envelope) = try load("GRAPHQL https://api.example.org/graphql\nContent-Type: application/graphql+json\n\nquery { me }\n")
        XCTAssertEqual(String(decoding: try envelope.resolve(0).body.data ?? Data(), as: UTF8.self), #"{"query":"query { me }"}"#,
                       "application/graphql+json is the JSON envelope")
        XCTAssertThrowsError(try load("""
            GET https://api.example.org/

            ###
            POST https://api.example.org/graphql
            X-REQUEST-TYPE: GraphQL
            Content-Type: application/graphql; charset=utf-8

            query($n: Int) { items(first: $n) { id } }

            {"n": 3}
            """)) { error in
            let error = error as? RequestListError
            XCTAssertTrue(error?.message.hasPrefix("an application/graphql body is the query alone") == true, "\(String(describing: error))")
            XCTAssertEqual(error?.line, 4)
        }
    }

    func testDynamicVariablesOfBothClients() throws {
        setenv("REQTOP_TEST_TOKEN", "from-env", 1)
        try file(".env", "API_KEY=\"from-dotenv\"\n")
        let (_, resolver) = try load("""
            GET https://api.example.org/x?a={{$processEnv REQTOP_TEST_TOKEN}}&b={{$env.REQTOP_TEST_TOKEN}}&c={{$dotenv API_KEY}}&d={{$randomInt 5 6}}&e={{$datetime "YYYY"}}&f={{$datetime iso8601 1 d}}&g={{$localDatetime rfc1123}}&h={{$guid}}
            """)
        let query = try resolver.resolve(0).url.query ?? ""
        let fields = Dictionary(uniqueKeysWithValues: query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        })
        XCTAssertEqual(fields["a"], "from-env")
        XCTAssertEqual(fields["b"], "from-env")
        XCTAssertEqual(fields["c"], "from-dotenv")
        XCTAssertEqual(fields["d"], "5")
        XCTAssertEqual(fields["e"]?.count, 4)
        XCTAssertTrue(fields["f"]?.contains("T") == true, fields["f"] ?? "")
        XCTAssertTrue(fields["g"]?.hasSuffix("%20GMT") == true, fields["g"] ?? "")
        XCTAssertEqual(fields["h"]?.count, 36)
    }

    /// A date offset past 10,000 years is an error naming it (it trapped on overflowing arithmetic);
    /// one within is a date.
    func testDatetimeOffsetsOutOfRangeAreErrors() throws {
        for offset in ["99999999999 y", "-400000000 M", "99999999999999999999 d", "9999999999999 ms"] {
            XCTAssertThrowsError(try load("GET https://api.example.org/x?t={{$datetime iso8601 \(offset)}}\n"), offset) { error in
                let message = (error as? RequestListError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains("the offset \(offset) of"), message)
                XCTAssertTrue(message.contains("is out of range"), message)
            }
        }
        XCTAssertThrowsError(try load("GET https://api.example.org/x?t={{$datetime iso8601 1.5 d}}\n")) { error in
            let message = (error as? RequestListError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("unknown dynamic variable"), message)
        }
        let (_, resolver) = try load("GET https://api.example.org/x?t={{$datetime \"YYYY\" 9000 y}}\n")
        let year = try XCTUnwrap(Int(try resolver.resolve(0).url.query?.dropFirst(2) ?? ""))
        XCTAssertGreaterThan(year, 11_000)
    }
}

/// HAR archives as browsers and proxies write them.
final class RealWorldHARTests: XCTestCase {
    private func har(_ entries: String, bom: Bool = false) throws -> RequestList {
        let text = (bom ? "\u{FEFF}" : "") + #"{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": ["# + entries + "]}}"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).har").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try RequestListLoader.load(path: path)
    }

    private func entry(_ method: String, _ url: String, postData: String = "null", extra: String = "") -> String {
        #"{"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "\#(method)", "url": "\#(url)", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0, "postData": \#(postData)}, "response": {}, "timings": {}\#(extra)}"#
    }

    func testAByteOrderMarkIsAccepted() throws {
        XCTAssertEqual(try har(entry("GET", "https://a.test/x"), bom: true).specs.map(\.url), ["https://a.test/x"])
    }

    func testWebSocketAndDataEntriesAreSkippedWithAWarning() throws {
        let list = try har([entry("GET", "wss://a.test/socket", extra: #", "_resourceType": "websocket""#),
                            entry("GET", "data:image/png;base64,AAAA"), entry("GET", "https://a.test/ok")].joined(separator: ","))
        XCTAssertEqual(list.specs.map(\.url), ["https://a.test/ok"])
        XCTAssertEqual(list.warnings.count, 2)
        XCTAssertTrue(list.warnings[0].message.contains("wss:"), "\(list.warnings)")
    }

    func testAnEntryWithAnEmptyURLIsSkippedWithAWarning() throws {
        let list = try har([entry("POST", ""), entry("GET", "https://a.test/ok")].joined(separator: ","))
        XCTAssertEqual(list.specs.map(\.url), ["https://a.test/ok"])
        XCTAssertEqual(list.warnings.map(\.message), ["entry 1 skipped: its URL is empty"])
    }

    func testMultipartParamsBecomeAMultipartBodyWithTheEntrysBoundary() throws {
        let post = #"{"mimeType": "multipart/form-data; boundary=----WebKitFormBoundaryX", "params": [{"name": "title", "value": "hi"}, {"name": "file", "fileName": "a.txt", "contentType": "text/plain", "value": "abc"}]}"#
        let list = try har(entry("POST", "https://a.test/upload", postData: post))
        let request = try RequestResolver(list: list).resolve(0)
        XCTAssertEqual(request.header(named: "Content-Type"), "multipart/form-data; boundary=----WebKitFormBoundaryX")
        XCTAssertEqual(String(decoding: request.body.data ?? Data(), as: UTF8.self),
                       "------WebKitFormBoundaryX\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhi\r\n"
                       + "------WebKitFormBoundaryX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                       + "Content-Type: text/plain\r\n\r\nabc\r\n------WebKitFormBoundaryX--\r\n")
    }
}
