import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopTestServer
import ReqtopTestSupport
import ReqtopTasks
import XCTest

/// `reqtop` run as a subprocess against the embedded server (stdout is a pipe, so runs are headless).
final class CLITests: XCTestCase {
    private var server: TestServer!
    private var directory: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: reqtopExecutable) else {
            throw XCTSkip("\(reqtopExecutable) is missing: run `swift build` first")
        }
        server = try TestServer()
        server.start()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Writes `text` to a file in the test's directory and returns its path.
    private func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func reqtop(_ arguments: [String], timeout: Double = 60) throws -> SubprocessResult {
        let result = try Subprocess.run(reqtopExecutable, arguments, timeout: timeout)
        XCTAssertFalse(result.timedOut, "reqtop \(arguments.joined(separator: " ")) timed out")
        return result
    }

    private var base: String { "base=\(server.baseURL.absoluteString)" }

    /// Issue 29: a 50 MB response that finished before a `kill -9` is whole in the HAR that
    /// `reqtop convert ID --to har` writes from the journal (kept beside it, not in a line).
    func testAHeadlessRunWithHARKilledWithSIGKILLLosesOnlyWhatWasInFlight() throws {
        let state = directory.appendingPathComponent("state").path
        let list = try file("two.http", "GET {{base}}/get?first=1\n\n###\nGET {{base}}/bytes/50000000?seed=29\n\n"
                            + "###\nGET {{base}}/drip?numbytes=100&duration=30\n")
        let har = directory.appendingPathComponent("never.har").path
        let run = try RunningProcess("/usr/bin/env", ["XDG_STATE_HOME=\(state)", reqtopExecutable, "run", list, "--var", base,
                                                      "--headless", "--events", "jsonl", "--har", har])
        XCTAssertNotNil(run.waitForLine { $0.contains(#""event":"response""#) && $0.contains(#""task":3"#) }, run.stderrText)
        XCTAssertTrue(eventually { run.stderrText.contains("journaling this run as ") }, run.stderrText)
        let id = try XCTUnwrap(run.stderrText.components(separatedBy: "journaling this run as ").dropFirst().first?
            .split(separator: " ").first.map(String.init), run.stderrText)
        // The journal is written on its own queue: the kill comes once the first task's end is in it
        // (standard output may be a batch ahead of the file).
        let journal = "\(state)/reqtop/sessions/\(id).jsonl"
        XCTAssertTrue(eventually {
            ((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "").split(separator: "\n")
                .filter { $0.contains(#""event":"completed""#) }.count == 2
        }, "the first two tasks' ends reach the journal")
        run.send(signal: SIGKILL) // no chance to write the HAR
        _ = run.waitForExit(timeout: 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: har))
        let recovered = try Subprocess.run("/usr/bin/env", ["XDG_STATE_HOME=\(state)", reqtopExecutable, "convert", id, "--to", "har"])
        XCTAssertEqual(recovered.status, 0, recovered.stderrText)
        let object = try JSONSerialization.jsonObject(with: recovered.stdout) as? [String: Any]
        let urls = ((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? [])
            .compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
        XCTAssertTrue(urls.contains(server.baseURL.absoluteString + "/get?first=1"), "the finished request is in the journal: \(urls)")
        let large = try XCTUnwrap(((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []).first {
            (($0["request"] as? [String: Any])?["url"] as? String)?.contains("/bytes/50000000") == true
        }, "the 50 MB response is in it")
        let content = (large["response"] as? [String: Any])?["content"] as? [String: Any]
        XCTAssertEqual(content?["encoding"] as? String, "base64")
        let body = try XCTUnwrap(Data(base64Encoded: content?["text"] as? String ?? ""))
        let expected = try Data(contentsOf: server.url("/bytes/50000000?seed=29"))
        XCTAssertEqual(body.count, 50_000_000, "whole")
        XCTAssertTrue(body == expected, "byte for byte")
        XCTAssertEqual(large["comment"] as? String, nil, "nothing omitted")
        let kept = "\(state)/reqtop/sessions/\(id).bodies"
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: kept), ["2-response"], "kept beside the journal")
    }

    func testSecretsAreRedactedInHARAndJSONLinesUnlessIncludeSecrets() throws {
        let list = try file("api.http", """
            GET {{base}}/get?token=abc123&page=2
            Authorization: Bearer {{token}}
            Cookie: session=s3cr3t

            ###
            GET {{base}}/cookies/set?sid=fresh-cookie-value
            """)
        _ = try file("http-client.private.env.json", #"{"dev": {"token": "tok-PRIVATE-1234"}}"#)
        let har = directory.appendingPathComponent("out.har").path
        let run = try reqtop(["run", list, "--env", "dev", "--var", base, "--headless", "--events", "jsonl", "--har", har])
        XCTAssertEqual(run.status, 0, run.stderrText)
        let written = try String(contentsOfFile: har, encoding: .utf8)
        for secret in ["tok-PRIVATE-1234", "abc123", "s3cr3t"] {
            XCTAssertFalse(run.stdoutText.contains(secret), "JSON Lines carry \(secret)")
            XCTAssertFalse(written.contains(secret), "the HAR carries \(secret)")
        }
        XCTAssertTrue(written.contains("Bearer [redacted]") && written.contains("token=[redacted]&page=2"), "what helps to debug stays")
        XCTAssertTrue(run.stdoutText.contains("sid=[redacted]"), "Set-Cookie's value goes, its name stays")

        let clear = directory.appendingPathComponent("clear.har").path
        let included = try reqtop(["run", list, "--env", "dev", "--var", base, "--headless", "--har", clear, "--include-secrets"])
        XCTAssertEqual(included.status, 0, included.stderrText)
        XCTAssertTrue(try String(contentsOfFile: clear, encoding: .utf8).contains("tok-PRIVATE-1234"), "--include-secrets keeps them")
        let mode = try FileManager.default.attributesOfItem(atPath: clear)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "a HAR with secrets in clear is its owner's alone")
    }

    private var jsonObjects: (SubprocessResult) throws -> [[String: Any]] = { result in
        try result.stdoutText.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    // MARK: Help

    func testEveryOptionOfEveryCommandIsInItsHelpAndInTheREADME() throws {
        let readme = try String(contentsOfFile: ((#filePath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("../../README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.range(of: "### Command line").map { readme[$0.upperBound...] }?
            .components(separatedBy: "```")[1])
        let main = try reqtop(["--help"])
        for command in ["run", "convert", "demo", "serve"] {
            XCTAssertTrue(main.stdoutText.contains("reqtop \(command) "), "reqtop --help lists \(command)")
            let help = try reqtop([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(section.contains("reqtop \(command)"), "the README lists \(command)")
            let options = help.stdoutText.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  -") else { return nil }
                return line.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init)
            }
            XCTAssertFalse(options.isEmpty, command)
            for option in options where option != "--help" {
                XCTAssertTrue(section.contains(option), "README's command line section documents \(command) \(option)")
                let unknown = try reqtop([command, option + "-typo"])
                XCTAssertEqual(unknown.status, 2, "a misspelt option is refused")
            }
        }
    }

    /// docs/manual.md is what `reqtop --manual` prints: the manual is generated, never edited apart.
    func testTheManualIsGeneratedFromTheDeclarations() throws {
        let page = try String(contentsOfFile: ((#filePath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("../../docs/manual.md"), encoding: .utf8)
        let printed = try reqtop(["--manual"])
        XCTAssertEqual(printed.status, 0)
        XCTAssertEqual(printed.stdoutText, page, "docs/manual.md is out of date: .build/debug/reqtop --manual > docs/manual.md")
        for command in ["run", "convert", "sessions", "open", "attach", "proxy", "demo", "serve"] {
            let help = try reqtop([command, "--help"]).stdoutText
            for line in help.split(separator: "\n") where line.hasPrefix("  -") {
                XCTAssertTrue(page.contains(line), "the manual has \(command)'s \(line)")
            }
        }
    }

    /// The bash completion, driven the way bash drives it (COMP_WORDS, COMP_CWORD): commands,
    /// options, option values, request-list files and folders, and `--env` names from the env
    /// file beside the list on the line. The zsh and fish scripts name every option too.
    func testShellCompletionCompletesCommandsOptionsFilesAndEnvironments() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("collection"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "GET http://h.test/\n".write(to: folder.appendingPathComponent("api.http"), atomically: true, encoding: .utf8)
        try "notes".write(to: folder.appendingPathComponent("about.md"), atomically: true, encoding: .utf8)
        try #"{"dev": {"host": "a"}, "prod": {"host": "b"}, "$shared": {}}"#
            .write(to: folder.appendingPathComponent("http-client.env.json"), atomically: true, encoding: .utf8)
        let script = try reqtop(["completion", "bash"])
        XCTAssertEqual(script.status, 0)
        try script.stdout.write(to: folder.appendingPathComponent("reqtop.bash"))
        let bash = try XCTUnwrap(findExecutable(named: "bash"))
        let binDirectory = (reqtopExecutable as NSString).deletingLastPathComponent
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
            let command = "cd '\(folder.path)' && source reqtop.bash && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count - 1) && _reqtop "
                + "&& printf '%s\\n' \"${COMPREPLY[@]}\""
            let result = try Subprocess.run(bash, ["-c", command], timeout: 30, environment: ["PATH": "\(binDirectory):/usr/bin:/bin"])
            XCTAssertEqual(result.status, 0, result.stderrText)
            return result.stdoutText.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(try complete(["reqtop", "co"]), ["completion", "convert"])
        XCTAssertEqual(try complete(["reqtop", "run", "--conc"]), ["--concurrency"])
        XCTAssertEqual(try complete(["reqtop", "convert", "api.http", "--to", "h"]), ["har", "http", "hurl"])
        XCTAssertEqual(try complete(["reqtop", "run", "--events", "j"]), ["jsonl"])
        XCTAssertEqual(try complete(["reqtop", "run", ""]), ["about.md", "api.http", "collection", "http-client.env.json", "reqtop.bash"]
                       .filter { !$0.hasSuffix(".md") && $0 != "reqtop.bash" }, "request lists and folders, not the rest")
        XCTAssertEqual(try complete(["reqtop", "run", "api.http", "--env", ""]), ["dev", "prod"])
        XCTAssertEqual(try complete(["reqtop", "completion", ""]), ["bash", "fish", "zsh"])
        for shell in ["zsh", "fish"] {
            let text = try reqtop(["completion", shell]).stdoutText
            for option in ["concurrency", "variables-file", "prune", "max-size", "to", "events"] {
                XCTAssertTrue(text.contains("--\(option)") || text.contains("-l \(option)"), "\(shell) completes --\(option)")
            }
            if let checker = findExecutable(named: shell) {
                try text.write(to: folder.appendingPathComponent("reqtop.\(shell)"), atomically: true, encoding: .utf8)
                let parsed = try Subprocess.run(checker, ["-n", folder.appendingPathComponent("reqtop.\(shell)").path], timeout: 30)
                XCTAssertEqual(parsed.status, 0, "\(shell) -n: \(parsed.stderrText)")
            }
        }
    }

    /// A Bruno collection given as `.` (from inside it), `..` and a `.bru` file by a relative path: read
    /// (they crashed: Foundation cannot take `.` apart), with the collection's environment.
    func testABrunoCollectionByARelativePathReads() throws {
        let collection = ((#filePath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("../ReqtopRequestListsTests/Fixtures/Wild/bruno/bruno-cli-ci-example")
        let bash = try XCTUnwrap(findExecutable(named: "bash"))
        for (folder, argument, requests) in [(collection, ".", 3), (collection + "/articles", "..", 3), (collection + "/articles", "articles.bru", 1)] {
            let result = try Subprocess.run(bash, ["-c", "cd '\(folder)' && '\(reqtopExecutable)' run --dry-run --env brunotestuser \(argument)"],
                                            timeout: 30, environment: ["PATH": "/usr/bin:/bin"])
            XCTAssertEqual(result.status, 0, "\(argument): \(result.stderrText)")
            XCTAssertEqual(result.stdoutText.components(separatedBy: "\n").filter { $0.hasPrefix("### ") }.count, requests, argument)
        }
    }

    /// `reqtop sessions` lists each session's size; `--prune --keep N` deletes the oldest and says which.
    func testSessionsShowSizesAndPruneKeepsTheNewest() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-state-\(UUID().uuidString)")
        let sessions = state.appendingPathComponent("reqtop/sessions")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        for day in 1...3 {
            let id = "2026010\(day)-000000-\(day)"
            try (#"{"journal":2,"session":{"id":"\#(id)","pid":1,"source":"list\#(day).http","started":0,"version":"0"}}"# + "\n"
                 + String(repeating: " ", count: 2000 * day)).write(to: sessions.appendingPathComponent(id + ".jsonl"), atomically: true, encoding: .utf8)
        }
        let environment = ["XDG_STATE_HOME": state.path, "PATH": "/usr/bin:/bin"]
        let listed = try Subprocess.run(reqtopExecutable, ["sessions"], timeout: 30, environment: environment)
        XCTAssertEqual(listed.status, 0)
        let lines = listed.stdoutText.split(separator: "\n")
        XCTAssertEqual(lines.map { String($0.prefix(17)) }, ["20260103-000000-3", "20260102-000000-2", "20260101-000000-1"])
        XCTAssertTrue(lines[0].contains("5.9 KB") || lines[0].contains("6.0 KB") || lines[0].contains("KB"), String(lines[0]))
        let pruned = try Subprocess.run(reqtopExecutable, ["sessions", "--prune", "--keep", "1"], timeout: 30, environment: environment)
        XCTAssertEqual(pruned.status, 0, pruned.stderrText)
        XCTAssertTrue(pruned.stderrText.contains("deleted 20260101-000000-1"), pruned.stderrText)
        XCTAssertTrue(pruned.stderrText.contains("pruned 2 sessions"), pruned.stderrText)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sessions.path), ["20260103-000000-3.jsonl"])
    }

    /// docs/reqtop.1 is what `reqtop --man` prints, and `man` renders it without a warning, every
    /// command and every option of its `--help` on the page.
    func testTheManPageIsGeneratedFromTheDeclarationsAndRenders() throws {
        let path = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("../../docs/reqtop.1")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let printed = try reqtop(["--man"])
        XCTAssertEqual(printed.status, 0)
        XCTAssertEqual(printed.stdoutText, page, "docs/reqtop.1 is out of date: .build/debug/reqtop --man > docs/reqtop.1")
        let man = try XCTUnwrap(findExecutable(named: "man"), "man is needed (scripts/setup.sh test installs man-db)")
        let rendered = try Subprocess.run(man, ["--warnings", "-l", path], timeout: 30,
                                          environment: ["MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        XCTAssertEqual(rendered.status, 0, rendered.stderrText)
        XCTAssertEqual(rendered.stderrText, "", "roff warnings")
        // (Words joined again over line ends: the page is filled to the width.)
        let text = rendered.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for command in ["run", "convert", "sessions", "open", "attach", "proxy", "demo", "serve"] {
            XCTAssertTrue(text.contains("reqtop \(command)"), "the page names reqtop \(command)")
            for line in try reqtop([command, "--help"]).stdoutText.split(separator: "\n") where line.hasPrefix("  -") {
                let synopsis = line.dropFirst(2).components(separatedBy: "  ")[0]
                XCTAssertTrue(text.contains(synopsis), "the page has \(command)'s \(synopsis)")
            }
        }
    }

    // MARK: Scripts

    /// JavaScriptCore is loaded when a list with scripts runs, not linked: a one-request run maps
    /// none of it, and without the library a scripted list is refused at its file, saying why and
    /// what to do, while `--no-scripts` sends it (and a list without scripts runs as ever).
    func testJavaScriptCoreIsLoadedOnlyForScriptsAndItsAbsenceIsAClearError() throws {
        let linked = try Subprocess.run("/usr/bin/ldd", [reqtopExecutable])
        XCTAssertFalse(linked.stdoutText.contains("javascriptcore"), "not linked:\n\(linked.stdoutText)")
        let scripted = try file("handler.http", "GET {{base}}/get\n\n> {%\n    client.test('ok', () => client.assert(response.status === 200));\n%}\n")
        let plain = try file("plain.http", "GET {{base}}/get\n")
        func run(_ arguments: [String], library: String) throws -> SubprocessResult {
            try Subprocess.run("/usr/bin/env", ["REQTOP_JAVASCRIPTCORE=\(library)", reqtopExecutable, "run"] + arguments + ["--var", base, "--headless"],
                               timeout: 60)
        }
        let missing = directory.appendingPathComponent("no-such-libjavascriptcore.so").path
        let refused = try run([scripted], library: missing)
        XCTAssertEqual(refused.status, 2, refused.stderrText)
        XCTAssertTrue(refused.stderrText.contains("handler.http:1:1"), refused.stderrText)
        XCTAssertTrue(refused.stderrText.contains("JavaScriptCore could not be loaded") && refused.stderrText.contains("--no-scripts"), refused.stderrText)
        XCTAssertEqual(server.requestCount(path: "/get"), 0, "nothing was sent")
        XCTAssertEqual(try run([scripted, "--no-scripts"], library: missing).status, 0)
        XCTAssertEqual(try run([plain], library: missing).status, 0)
        XCTAssertEqual(server.requestCount(path: "/get"), 2)
        let loaded = try run([scripted], library: "")
        XCTAssertEqual(loaded.status, 0, loaded.stderrText)
        XCTAssertTrue(loaded.stdoutText.contains("tests: 1 passed"), loaded.stdoutText)
    }

    /// A scripted list from the command line: exit 4 when only a test failed, 0 when all passed, 1
    /// when a script failed; the JUnit report validates against Jenkins' JUnit schema (xmllint).
    func testScriptTestsSetTheExitCodeAndTheJUnitReportValidates() throws {
        let xmllint = try XCTUnwrap(findExecutable(named: "xmllint"), "xmllint is installed by scripts/setup.sh test")
        let schema = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/junit-10.xsd")
        func list(_ check: String) throws -> String {
            try file("scripted-\(UUID().uuidString.prefix(6)).http", """
                ### login
                POST {{base}}/anything/login
                Content-Type: application/json

                {"token": "t<&>"}

                > {%
                    client.global.set("token", response.body.json.token);
                    client.test("logged in", () => client.assert(response.status === 200, "status " + response.status));
                %}

                ### me
                GET {{base}}/headers
                X-Token: {{token}}

                > {%
                    \(check)
                %}
                """)
        }
        let report = directory.appendingPathComponent("report.xml").path
        let tap = directory.appendingPathComponent("report.tap").path
        let failing = try reqtop(["run", try list("client.test('token sent', () => client.assert(response.body.headers['X-Token'] === 'nope', 'sent ' + response.body.headers['X-Token']));"),
                                  "--var", base, "--headless", "--report", "junit=\(report)", "--report", "tap=\(tap)"])
        XCTAssertEqual(failing.status, 4, failing.stdoutText + failing.stderrText)
        XCTAssertTrue(failing.stdoutText.contains("tests: 1 passed, 1 failed"), failing.stdoutText)
        let valid = try Subprocess.run(xmllint, ["--noout", "--schema", schema, report])
        let xml = try String(contentsOfFile: report, encoding: .utf8)
        XCTAssertEqual(valid.status, 0, valid.stderrText + xml)
        XCTAssertTrue(xml.contains(#"failures="1""#) && xml.contains("sent t&lt;&amp;&gt;"), xml)
        XCTAssertTrue(try String(contentsOfFile: tap, encoding: .utf8).contains("not ok 2 me - token sent"))
        let passing = try reqtop(["run", try list("client.test('token sent', () => client.assert(response.body.headers['X-Token'].startsWith('t'), 'no'));"),
                                  "--var", base, "--headless"])
        XCTAssertEqual(passing.status, 0, passing.stdoutText + passing.stderrText)
        let throwing = try reqtop(["run", try list("response.body.nothing.here;"), "--var", base, "--headless", "--events", "jsonl"])
        XCTAssertEqual(throwing.status, 1, throwing.stderrText)
        XCTAssertTrue(throwing.stdoutText.contains(#""event":"log","level":"error""#), throwing.stdoutText)
    }

    // MARK: Locust

    func testLocustfileFromConvertSendsTheListWithChainedValues() throws {
        let locust = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("../../.venv/bin/locust")
        guard FileManager.default.isExecutableFile(atPath: locust) else {
            throw XCTSkip("Locust is not installed in .venv (scripts/setup.sh test installs it)")
        }
        let nginx = TestEnvironment.nginxURL?.absoluteString
        let list = try file("load.http", """
            # @name login
            POST {{base}}/anything/login
            Content-Type: application/json
            X-Dup: a
            X-Dup: b

            {"user": "ada"}

            ###
            GET {{base}}/echo/head?from={{login.response.body.$.json.user}}
            Authorization: Bearer {{login.response.body.$.method}}
            """ + (nginx.map { "\n\n###\nGET \($0)/files/100b.bin\n" } ?? ""))
        let locustfile = directory.appendingPathComponent("locustfile.py").path
        let converted = try reqtop(["convert", list, "--to", "locust", "-o", locustfile, "--var", base])
        XCTAssertEqual(converted.status, 0, converted.stderrText)
        XCTAssertTrue(converted.stderrText.contains("'X-Dup' is repeated"), "the merge of repeated headers is said: \(converted.stderrText)")
        let run = try Subprocess.run(locust, ["-f", locustfile, "--headless", "-u", "1", "-r", "1", "-t", "2s", "--only-summary"],
                                     timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderrText)
        let log = server.requestLog
        let logins = log.filter { $0.method == "POST" && $0.path == "/anything/login" }
        let chained = log.filter { $0.path == "/echo/head" }
        XCTAssertGreaterThan(logins.count, 0)
        XCTAssertEqual(logins.first?.bodySize, 15)
        XCTAssertEqual(logins.first?.header("X-Dup"), "a, b")
        XCTAssertEqual(logins.first?.header("Content-Type"), "application/json")
        XCTAssertEqual(chained.first?.target, "/echo/head?from=ada", "the chained value, extracted in Python")
        XCTAssertEqual(chained.first?.header("Authorization"), "Bearer POST")
        XCTAssertTrue(run.stdoutText.contains("login") || run.stderrText.contains("login"), "the summary names the requests")
    }

    // MARK: JSON Lines

    func testJSONLinesOutputParsesLineByLineAndMatchesTheSchema() throws {
        let list = try file("ok.http", """
            GET {{base}}/get

            ###
            GET {{base}}/redirect/1

            ###
            POST {{base}}/post
            Content-Type: application/json

            {"a": 1}
            """)
        let result = try reqtop(["run", list, "--var", base, "--events", "jsonl", "--concurrency", "2"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let objects = try jsonObjects(result)
        XCTAssertFalse(objects.isEmpty)
        for object in objects {
            XCTAssertNotNil(object["event"] as? String, "\(object)")
            XCTAssertNotNil(object["task"] as? Int, "\(object)")
            XCTAssertNotNil(object["time"] as? Double, "\(object)")
        }
        let created = objects.filter { $0["event"] as? String == "created" }
        XCTAssertEqual(created.count, 3)
        XCTAssertEqual(created.compactMap { $0["method"] as? String }.sorted(), ["GET", "GET", "POST"])
        XCTAssertEqual(created.compactMap { $0["url"] as? String }.count, 3)
        // One `request` event per request sent (the redirect's hop too): the head as sent, headers as
        // ordered [name, value] pairs.
        let sent = objects.filter { $0["event"] as? String == "request" }
        XCTAssertEqual(sent.compactMap { $0["url"] as? String }.filter { $0.contains("/redirect/1") || $0.hasSuffix("/get") }.count, 3)
        XCTAssertEqual(sent.count, 4)
        let postHead = try XCTUnwrap(sent.first { $0["method"] as? String == "POST" }?["headers"] as? [[String]])
        XCTAssertEqual(postHead.map { $0[0] }, ["Host", "User-Agent", "Accept", "Content-Type", "Content-Length"])
        XCTAssertEqual(postHead.first { $0[0] == "Content-Type" }?[1], "application/json")
        let completed = objects.filter { $0["event"] as? String == "completed" }
        XCTAssertEqual(completed.count, 3)
        for object in completed {
            XCTAssertEqual(object["status"] as? Int, 200)
            XCTAssertNotNil(object["bytes"] as? Int)
            let timings = try XCTUnwrap(object["timings"] as? [String: Double])
            XCTAssertEqual(Set(timings.keys), ["redirect", "dns", "connect", "tls", "send", "wait", "receive", "total"])
        }
        // The redirected task's timings cover the whole chain: the earlier hop is `redirect`, inside `total`.
        let redirectedTask = try XCTUnwrap(objects.first { $0["event"] as? String == "redirected" }?["task"] as? Int)
        let chain = try XCTUnwrap(completed.first { $0["task"] as? Int == redirectedTask }?["timings"] as? [String: Double])
        XCTAssertGreaterThanOrEqual(chain["redirect"] ?? -1, 0)
        XCTAssertGreaterThanOrEqual(chain["total"] ?? 0, chain["redirect"] ?? .infinity)
        XCTAssertTrue(completed.filter { $0["task"] as? Int != redirectedTask }
            .allSatisfy { ($0["timings"] as? [String: Double])?["redirect"] == -1 }, "−1: no redirect")
        XCTAssertTrue(objects.contains { $0["event"] as? String == "redirected" })
        XCTAssertTrue(result.stderrText.contains("3 requests: 3 completed, 0 failed"), "summary goes to stderr: \(result.stderrText)")
    }

    // MARK: Exit codes

    func testExitsZeroWhenEveryTaskCompletedWhateverItsStatus() throws {
        let list = try file("fine.http", "GET {{base}}/get\n\n###\nGET {{base}}/status/404\n")
        let result = try reqtop(["run", list, "--var", base, "--headless"])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("→ 404 Not Found"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("2 requests: 2 completed, 0 failed"), result.stdoutText)
    }

    func testExitsOneWhenAConnectionIsRefused() throws {
        let list = try file("refused.http", "GET {{base}}/get\n\n###\nGET http://127.0.0.1:1/\n")
        let result = try reqtop(["run", list, "--var", base])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdoutText.contains("✗ cannotConnect:"), result.stdoutText)
    }

    func testFailOnStatusMakesHTTPErrorsExitOne() throws {
        let list = try file("status.http", "GET {{base}}/status/404\n")
        XCTAssertEqual(try reqtop(["run", list, "--var", base]).status, 0)
        XCTAssertEqual(try reqtop(["run", list, "--var", base, "--fail-on-status"]).status, 1)
    }

    func testMalformedFileExitsTwoWithLocationAndCaretAndSendsNothing() throws {
        let list = try file("bad.http", "GET {{base}}/get\n\n###\nGET {{base}}/users/{{userId}}\n")
        let result = try reqtop(["run", list, "--var", base])
        XCTAssertEqual(result.status, 2)
        let lines = result.stderrText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "\(list):4:20: error: unknown variable 'userId': define it with '@userId = …', "
                       + "in http-client.env.json, or with --var userId=…")
        XCTAssertEqual(Array(lines.dropFirst().prefix(2)), ["GET {{base}}/users/{{userId}}", String(repeating: " ", count: 19) + "^"])
        XCTAssertEqual(server.requestLog.count, 0)
    }

    func testUnknownOptionIsAUsageErrorAndVersionAndHelpPrint() throws {
        let unknown = try reqtop(["run", "x.http", "--frobnicate"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderrText.contains("unknown option '--frobnicate'"), unknown.stderrText)
        let version = try reqtop(["--version"]).stdoutText
        XCTAssertNotNil(version.range(of: #"^reqtop \d+\.\d+\.\d+\n$"#, options: .regularExpression), version)
        for command in ["run", "convert", "demo", "serve"] {
            let help = try reqtop([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdoutText.hasPrefix("Usage: reqtop \(command)"), help.stdoutText)
        }
    }

    // MARK: Dry run and convert

    func testDryRunPrintsResolvedRequestsAndSendsNothing() throws {
        let list = try file("dry.http", """
            # @name first
            GET {{base}}/get?q=1

            ###
            POST {{base}}/anything/{{first.response.body.$.url}}
            Content-Type: application/json

            {"from": "{{base}}"}
            """)
        let result = try reqtop(["run", list, "--var", base, "--dry-run"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("GET \(server.baseURL.absoluteString)/get?q=1"), result.stdoutText)
        // The waiting request: every other variable resolved, the value it waits for left as written, its body shown.
        XCTAssertTrue(result.stdoutText.contains("POST \(server.baseURL.absoluteString)/anything/{{first.response.body.$.url}}"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("{\"from\": \"\(server.baseURL.absoluteString)\"}"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("# waits for the response of: first"), result.stdoutText)
        XCTAssertEqual(server.requestLog.count, 0)
    }

    /// ktor's JWT example: the second request needs what only the first's handler sets. A dry run
    /// runs no script: it shows the request with `{{auth_token}}` and names the script that sets it.
    /// A value only another client makes (REST Client's `{{$aadToken}}`) is a request that will not
    /// be sent: one `### N … — not sent: why` line (no request line a reader could take for a
    /// request, no `# not sent` a reader could take for a header), and exit 3.
    func testDryRunMarksARequestThatWillNotBeSentAndExitsThree() throws {
        let list = ((#filePath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("../ReqtopRequestListsTests/Fixtures/Wild/http/ktor-documentation__auth-jwt-hs256_requests.http")
        let scripted = try reqtop(["run", list, "--dry-run"])
        XCTAssertEqual(scripted.status, 0, scripted.stderrText)
        XCTAssertTrue(scripted.stdoutText.contains("GET http://localhost:8080/hello"), scripted.stdoutText)
        XCTAssertTrue(scripted.stdoutText.contains("{{auth_token}}\n# set by scripts when the list runs (a dry run runs none): {{auth_token}} from the script at "),
                      scripted.stdoutText)
        let other = try file("aad.http", "POST http://localhost:8080/login\n\n###\nGET http://localhost:8080/hello\nAuthorization: {{$aadToken}}\n")
        let dry = try reqtop(["run", other, "--dry-run"])
        XCTAssertEqual(dry.status, 3, dry.stderrText)
        let lines = dry.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let notSent = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("### 2") }, dry.stdoutText)
        XCTAssertTrue(lines[notSent].contains(" — not sent: {{$aadToken}}"), lines[notSent])
        XCTAssertEqual(lines[notSent + 1], "", "nothing of the request follows: \(dry.stdoutText)")
        XCTAssertFalse(dry.stdoutText.contains("GET http://localhost:8080/hello"), dry.stdoutText)
        XCTAssertTrue(lines.contains("POST http://localhost:8080/login"), dry.stdoutText)
        XCTAssertTrue(dry.stderrText.contains("1 request would not be sent (exit status 3)"), dry.stderrText)
        XCTAssertEqual(server.requestLog.count, 0)
    }

    func testDryRunShowsEveryFieldAsItWillBeSentWithTheAddedOnesMarked() throws {
        let list = try file("order.http", """
            wHat {{base}}/echo/head?a=%3A&b=[1]
            Z-Last: 1
            X-Dup: a
            A-First: 1
            X-Dup: b

            body
            """)
        let dry = try reqtop(["run", list, "--var", base, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderrText)
        let lines = dry.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.dropFirst().prefix(9)), [
            "wHat \(server.baseURL.absoluteString)/echo/head?a=%3A&b=[1]",
            "Host: 127.0.0.1:\(server.port)   # added", "User-Agent: reqtop/0.1.0   # added", "Accept: */*   # added",
            "Z-Last: 1", "X-Dup: a", "A-First: 1", "X-Dup: b", "Content-Length: 4   # added",
        ])
        // And that is what the server receives.
        let sent = try reqtop(["run", list, "--var", base, "--headless"])
        XCTAssertEqual(sent.status, 0, sent.stderrText)
        let predicted = lines.dropFirst(2).prefix(8).map { $0.replacingOccurrences(of: "   # added", with: "") }
        XCTAssertEqual(Array(server.requestLog.last?.rawHead.dropFirst() ?? []), predicted)
        XCTAssertEqual(server.requestLog.last?.rawHead.first, "wHat /echo/head?a=%3A&b=[1] HTTP/1.1")
    }

    func testConvertHTTPToHARAndBackKeepsTheRequests() throws {
        let list = try file("api.http", """
            GET https://api.example.org/users?page=2
            Accept: application/json

            ###
            POST https://api.example.org/users
            Content-Type: application/json

            {"name": "ada"}
            """)
        let har = directory.appendingPathComponent("api.har").path
        XCTAssertEqual(try reqtop(["convert", list, "--to", "har", "-o", har]).status, 0)
        let direct = try reqtop(["convert", list, "--to", "http"])
        let roundTrip = try reqtop(["convert", har, "--to", "http"])
        XCTAssertEqual(roundTrip.status, 0, roundTrip.stderrText)
        XCTAssertEqual(roundTrip.stdoutText, direct.stdoutText)
        XCTAssertTrue(roundTrip.stdoutText.contains("POST https://api.example.org/users"), roundTrip.stdoutText)
        let curl = try reqtop(["convert", list, "--to", "curl"])
        XCTAssertTrue(curl.stdoutText.hasPrefix("curl "), curl.stdoutText)
        XCTAssertEqual(try reqtop(["convert", list, "--to", "yaml"]).status, 2)
    }

    /// Converting keeps a `{{reference}}` where a secret goes, and says on stderr when it hid secrets
    /// (it did both silently: a token's `{{ api_key }}` became `[redacted]`).
    func testConvertKeepsReferencesAndSaysWhatItHid() throws {
        let list = try file("keys.http", """
            GET https://api.example.org/a?access_token={{ api_key }}

            ###
            POST https://api.example.org/login
            Content-Type: application/json

            {"user": "ada", "password": "correct-horse"}
            """)
        let converted = try reqtop(["convert", list, "--to", "http"])
        XCTAssertEqual(converted.status, 0, converted.stderrText)
        XCTAssertTrue(converted.stdoutText.contains("access_token={{ api_key }}"), converted.stdoutText)
        XCTAssertFalse(converted.stdoutText.contains("correct-horse"), converted.stdoutText)
        XCTAssertTrue(converted.stderrText.contains("written as [redacted] (--include-secrets keeps them)"), converted.stderrText)
        let clear = try reqtop(["convert", list, "--to", "http", "--include-secrets"])
        XCTAssertTrue(clear.stdoutText.contains("correct-horse"), clear.stdoutText)
        XCTAssertFalse(clear.stderrText.contains("[redacted]"), clear.stderrText)
    }

    // MARK: Options, demo, HAR at the end

    func testOptionFormsRepeatAndConcurrencyAreHonoured() throws {
        let list = try file("forms.http", "GET {{base}}/anything/{{a}}-{{b}}\n")
        let result = try reqtop(["run", list, "--var=\(base)", "--var", "a=one", "--var=b=two", "--repeat=3", "--concurrency", "2"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(server.requestCount(path: "/anything/one-two"), 3)
        XCTAssertTrue(result.stdoutText.contains("3 requests: 3 completed"), result.stdoutText)
        XCTAssertEqual(try reqtop(["run", list, "--var", base, "--concurrency", "0"]).status, 2)
        XCTAssertEqual(try reqtop(["run", list, "--var", base, "--events", "xml"]).status, 2)
        XCTAssertEqual(try reqtop(["run", list, "--var"]).status, 2, "an option without its value is a usage error")
    }

    func testHARIsWrittenAtTheEndWithEveryCompletedTask() throws {
        let list = try file("har.http", "GET {{base}}/get\n\n###\nPOST {{base}}/post\n\nbody text\n")
        let harPath = directory.appendingPathComponent("end.har").path
        let result = try reqtop(["run", list, "--var", base, "--har", harPath])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: harPath))) as? [String: Any]
        let entries = try XCTUnwrap((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.compactMap { ($0["request"] as? [String: Any])?["method"] as? String }, ["GET", "POST"])
        for entry in entries {
            let timings = try XCTUnwrap(entry["timings"] as? [String: Double])
            XCTAssertEqual(Set(timings.keys), ["blocked", "dns", "connect", "ssl", "send", "wait", "receive"])
        }
    }

    func testDemoListIsValid() throws {
        let demo = URL(fileURLWithPath: reqtopExecutable).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/demo.http").standardizedFileURL.path
        let result = try reqtop(["run", demo, "--var", base, "--dry-run"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("# waits for the response of: first"), result.stdoutText)
        XCTAssertEqual(server.requestLog.count, 0)
    }

    func testAnAbsurdRepeatIsRefusedBeforeAnythingIsPlanned() throws {
        let list = try file("one.http", "GET {{base}}/get\n")
        let result = try reqtop(["run", list, "--var", base, "--repeat", "9223372036854775807", "--headless"])
        XCTAssertEqual(result.status, 2, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("is more than 10000000 requests in one run"), result.stderrText)
        XCTAssertEqual(server.requestLog.count, 0)
    }

    func testAnExistingHARIsReplacedWhole() throws {
        let list = try file("one.http", "GET {{base}}/get?n=1\n")
        let har = directory.appendingPathComponent("same.har").path
        for round in 1...3 {
            let result = try reqtop(["run", list, "--var", base, "--headless", "--har", har])
            XCTAssertEqual(result.status, 0, "round \(round): \(result.stderrText)")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: har))) as? [String: Any]
            XCTAssertEqual(((object?["log"] as? [String: Any])?["entries"] as? [Any])?.count, 1, "round \(round)")
        }
    }

    func testHARToAFolderIsRefusedAndThroughASymlinkIsWrittenThrough() throws {
        let list = try file("one.http", "GET {{base}}/get\n")
        let folder = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let refused = try reqtop(["run", list, "--var", base, "--headless", "--har", folder.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderrText.contains("is a folder: give a file name"), refused.stderrText)
        let target = directory.appendingPathComponent("real.har"), link = directory.appendingPathComponent("link.har")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let written = try reqtop(["run", list, "--var", base, "--headless", "--har", link.path])
        XCTAssertEqual(written.status, 0, written.stderrText)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path, "the link is still a link")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: target)) as? [String: Any]
        XCTAssertEqual(((object?["log"] as? [String: Any])?["entries"] as? [Any])?.count, 1)
    }

    func testTheBuiltInDemoListIsResourcesDemoHTTPAndACopiedBinaryRunsIt() throws {
        let readable = URL(fileURLWithPath: reqtopExecutable).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/demo.http").standardizedFileURL
        XCTAssertEqual(DemoList.text, try String(contentsOf: readable, encoding: .utf8),
                       "Sources/ReqtopTasks/Demo/DemoList.swift must be Resources/demo.http verbatim")
        let copy = directory.appendingPathComponent("bin/reqtop")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: reqtopExecutable, toPath: copy.path)
        let result = try Subprocess.run(copy.path, ["demo", "--headless"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("replaying the built-in demo.http"), result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("/fault/escape → 200"), result.stdoutText)
    }

    func testDemoStartsTheEmbeddedServerAndReplaysTheListFromREQTOP_RESOURCES() throws {
        _ = try file("demo.http", "GET {{base}}/get?from=demo\n\n###\nGET {{base}}/status/418\n")
        let result = try Subprocess.run(reqtopExecutable, ["demo", "--headless"], timeout: 60,
                                        environment: ["REQTOP_RESOURCES": directory.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("/get?from=demo → 200 OK"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("→ 418"), result.stdoutText)
    }

    // MARK: Signals

    func testSIGINTCancelsWritesHARWithWhatArrivedAndExits130() throws {
        let list = try file("slow.http", """
            GET {{base}}/get?first=1

            ###
            GET {{base}}/drip?numbytes=100&duration=30
            """)
        let harPath = directory.appendingPathComponent("session.har").path
        let process = try RunningProcess(reqtopExecutable, ["run", list, "--var", base, "--events", "jsonl", "--har", harPath])
        // Concurrency 1: when the drip's response arrives, the first request has finished.
        let response = process.waitForLine { $0.contains("\"event\":\"response\"") && $0.contains("\"task\":2") }
        XCTAssertNotNil(response, "no response line for the drip; stdout: \(process.stdoutLines)")
        process.send(signal: SIGINT)
        XCTAssertEqual(process.waitForExit(timeout: 20), 130, process.stderrText)
        XCTAssertTrue(process.stdoutLines.contains { $0.contains("\"event\":\"cancelled\"") && $0.contains("\"task\":2") })
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: harPath))) as? [String: Any]
        let entries = try XCTUnwrap((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        // The drip was cancelled after its response head: it is in, with what arrived and a comment saying so.
        XCTAssertEqual(entries.compactMap { ($0["request"] as? [String: Any])?["url"] as? String },
                       [server.baseURL.absoluteString + "/get?first=1", server.baseURL.absoluteString + "/drip?numbytes=100&duration=30"])
        XCTAssertNil(entries[0]["comment"])
        XCTAssertTrue((entries[1]["comment"] as? String)?.hasPrefix("the task was cancelled after the response head") ?? false, "\(entries[1])")
        XCTAssertNil(entries[0]["_error"])
        XCTAssertEqual(entries[1]["_error"] as? String, "cancelled: cancelled", "the error, where tools look for it (Chrome's _error)")
        XCTAssertTrue(process.stderrText.contains("1 cancelled"), process.stderrText)
    }

    func testSIGTERMCancelsLikeSIGINTAndTheSummaryIsPrinted() throws {
        let list = try file("slow.http", "GET {{base}}/drip?numbytes=100&duration=30\n")
        let process = try RunningProcess(reqtopExecutable, ["run", list, "--var", base])
        let response = process.waitForLine { $0.contains("#1 response") }
        XCTAssertNotNil(response, "no response line; stdout: \(process.stdoutLines)")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(timeout: 20), 130, process.stderrText)
        XCTAssertTrue(process.stdoutLines.contains { $0.hasPrefix("#1 ") && $0.hasSuffix(" cancelled") }, "\(process.stdoutLines)")
        XCTAssertTrue(process.stdoutLines.contains { $0.contains("1 cancelled") && $0.contains("1 request") }, "the summary: \(process.stdoutLines)")
    }
}
