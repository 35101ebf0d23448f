import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// The inspector in a real terminal (tmux, 120×40) against the embedded server: what a user does.
final class InspectorEndToEndTests: XCTestCase {
    private static let reqtop = TestEnvironment.builtProduct("reqtop")

    private var server: TestServer!
    private var scratch: URL!

    override func setUpWithError() throws {
        if Tmux.executablePath == nil && !TestEnvironment.isCI { throw XCTSkip("tmux is not installed") }
        guard FileManager.default.isExecutableFile(atPath: Self.reqtop) else {
            XCTFail("\(Self.reqtop) is missing: run `swift build` before `swift test` (make test does)")
            throw XCTSkip("reqtop binary missing")
        }
        server = try TestServer()
        server.start()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    /// A shell that runs `command`, then reports the exit status and tty modes, and stays open
    /// (it ignores the Ctrl-C meant for reqtop).
    private func shell(running command: String) throws -> Tmux {
        // Journals and prompt history go to the test's scratch folder, not the user's state folder.
        let script = "trap : INT; cd \(scratch.path); export XDG_STATE_HOME=\(scratch.path)/state; echo BEFORE-REQTOP; "
            + "SWIFT_BACKTRACE=interactive=no \(command); echo \"EXIT=$?\"; "
            + "echo \"STTY: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')\"; "
            + "echo DONE; sleep 60"
        let tmux = try Tmux(arguments: ["sh", "-c", script])
        addTeardownBlock { tmux.kill() }
        return tmux
    }

    /// The screen line of the table row whose path contains `path`.
    private func row(_ path: String, in screen: String) -> String? {
        screen.split(separator: "\n").map(String.init).first { $0.contains(path) && $0.contains("GET") || $0.contains(path) && $0.contains("POST") }
    }

    /// Moves the selection to the row containing `path` (from the top).
    private func select(_ path: String, _ tmux: Tmux) throws {
        let screen = try tmux.capture()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(where: { $0.contains("HOST / PATH") }),
              let target = lines.firstIndex(where: { $0.contains(path) }) else { return XCTFail("no row for \(path):\n\(screen)") }
        try tmux.sendKeys("g")
        for _ in 0..<(target - header - 1) { try tmux.sendKeys("j") }
    }

    /// The pid of the child of `parent` whose command is `name` (from /proc).
    private func childProcess(of parent: Int32, named name: String) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let command = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if command == name, fields.count > 1, Int32(fields[1]) == parent { return pid }
        }
        return nil
    }

    private func writeList(_ text: String) throws -> String {
        let path = scratch.appendingPathComponent("session.http").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testDemoShowsTheTableDetailTabsAndHelpAndQuitRestoresTheTerminal() throws {
        let tmux = try shell(running: "\(Self.reqtop) demo")
        try tmux.waitUntil("the demo's tasks to finish") { screen in
            screen.contains("/status/404") && screen.contains("cannotConnect") && screen.contains("timedOut")
        }
        let title = try tmux.display("#{pane_title}")
        var screen = try tmux.capture()
        XCTAssertTrue(row("/status/404", in: screen)?.contains(" 404 ") ?? false, screen)
        XCTAssertTrue(row("/redirect/3", in: screen)?.contains("↪3") ?? false, screen)
        XCTAssertTrue(screen.contains("Enter open"), "the hint line explains the keys")
        // Escape sequences from the network are shown as symbols, never obeyed.
        try tmux.waitFor(text: "/fault/escape")
        try select("/fault/escape", tmux)
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "Request │ Response")
        try tmux.sendKeys("Tab")
        screen = try tmux.waitFor(text: "X-Escape:")
        XCTAssertTrue(screen.contains("␛[31mred␛[0m"), screen)
        XCTAssertFalse(screen.contains("\u{1B}"))
        XCTAssertEqual(try tmux.display("#{pane_title}"), title, "the OSC title sequence was not obeyed")
        let colours = try tmux.capture(escapes: true)
        XCTAssertFalse(colours.contains("\u{1B}[31m"), "no stray red from the header value")
        // Body: mostly text, so text with the escapes as pictures; `v` steps to the hex dump.
        try tmux.sendKeys("Tab")
        screen = try tmux.waitFor(text: "auto view (v changes it)")
        XCTAssertTrue(screen.contains("body: ␛[31mred␛[0m ␛]0;pwned␇"), screen)
        try tmux.sendKeys("v", "v", "v", "v") // json, html/xml, text, hex
        try tmux.waitFor(text: "00000000  62 6f 64 79")
        // Timing (the waterfall), Events (the timeline).
        for mark in ["Waterfall (total", "completed  status 200"] {
            try tmux.sendKeys("Tab")
            screen = try tmux.waitFor(text: mark)
        }
        XCTAssertTrue(screen.contains("resumed"), screen)
        try tmux.sendKeys("Escape", "?")
        try tmux.waitFor(text: "save the session (or the marked tasks) as HAR")
        try tmux.sendKeys("Escape", "q")
        screen = try tmux.waitUntil("the session to end or ask") { $0.contains("DONE") || $0.contains("quit? (y/n)") }
        if screen.contains("quit? (y/n)") { try tmux.sendKeys("y") }
        screen = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(screen.contains("BEFORE-REQTOP"), "alternate screen left:\n\(screen)")
        XCTAssertTrue(screen.contains("STTY: icanon echo"), screen)
        XCTAssertEqual(try tmux.display("#{alternate_on}"), "0")
        XCTAssertEqual(try tmux.display("#{cursor_flag}"), "1")
    }

    /// The demo's server-sent events, live in the Stream tab at 80×24 while they arrive, then all forty.
    func testTheDemosEventStreamIsShownLiveInTheStreamTab() throws {
        let tmux = try shell(running: "\(Self.reqtop) demo")
        try tmux.waitFor(text: "/sse?count=40")
        try select("/sse?count=40", tmux)
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "Request │ Response")
        try tmux.sendKeys("8")
        // While it runs: the header says so and the newest event is on screen (the view follows the tail).
        var screen = try tmux.waitUntil("some events to have arrived") { $0.contains("arriving ──") && $0.contains("  tick  id=") }
        XCTAssertTrue(screen.contains("Stream"), screen)
        screen = try tmux.waitUntil("the last event, followed to the bottom", timeout: 30) {
            $0.contains("— completed 200 OK") && $0.contains("#40  tick  id=40")
        }
        XCTAssertTrue(screen.contains(#""of": 40"#), "its JSON data pretty-printed:\n\(screen)")
        try tmux.sendKeys("g")
        screen = try tmux.waitFor(text: "── 40 messages (sse), 631 B of data ──")
        try tmux.sendKeys("/", "i", "d", "=", "7", "Enter")
        screen = try tmux.waitFor(text: "match 1/1 for id=7")
        XCTAssertTrue(screen.contains("#7  tick  id=7"), screen)
        try tmux.sendKeys("Escape")
        // The whole table, not the first lines of a frame still being drawn over the detail view.
        screen = try tmux.waitUntil("the table with the stream's row") { $0.contains("HOST / PATH") && self.row("/sse?count=40", in: $0) != nil }
        XCTAssertTrue(row("/sse?count=40", in: screen)?.contains("40") ?? false, "the row counts the events:\n\(screen)")
    }

    func testDetailViewSearchWrapScrollAndCookies() throws {
        let base = server.baseURL.absoluteString
        let long = String(repeating: "x", count: 300) + "END"
        let list = try writeList("""
            ### cookies
            GET \(base)/cookies/set?sid=abc

            ### long
            GET \(base)/get?long=\(long)
            """)
        let tmux = try shell(running: "\(Self.reqtop) run \(list)")
        try tmux.waitUntil("both tasks to complete") { screen in
            (self.row("/cookies/set", in: screen)?.contains("completed") ?? false) && (self.row("/get?long", in: screen)?.contains("completed") ?? false)
        }
        try select("/get?long", tmux)
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "Request │ Response")
        try tmux.sendKeys("3")
        var screen = try tmux.waitFor(text: "auto view (v changes it)")
        XCTAssertTrue(screen.contains("xEND"), "a long value wraps instead of being cut:\n\(screen)")
        // Typing a search goes into the prompt: its letters do not replay (r) or cancel (x) anything.
        try tmux.sendKeys("/xend")
        try tmux.waitFor(text: "search: xend")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitUntil("the first match") { $0.contains("match 1/2 for xend") }
        try tmux.sendKeys("n")
        try tmux.waitFor(text: "match 2/2 for xend")
        XCTAssertFalse(try tmux.capture().contains("replaying"), "nothing was replayed")
        // Wrap off: the end of the line is off screen until → scrolls to it.
        try tmux.sendKeys("g", "z")
        screen = try tmux.waitFor(text: "wrap off")
        XCTAssertFalse(screen.contains("xEND"), screen)
        for _ in 0..<30 { try tmux.sendKeys("Right") } // 8 columns each: the 300-character value's end is in view
        try tmux.waitFor(text: "xEND")
        // The Cookies tab of the redirecting /cookies/set: set by the first hop, sent on the second.
        try tmux.sendKeys("Escape")
        try tmux.waitFor(text: "HOST / PATH")
        try select("/cookies/set", tmux)
        try tmux.sendKeys("Enter", "6")
        screen = try tmux.waitFor(text: "── set by")
        let setRow = screen.split(separator: "\n").first { $0.contains("sid") && $0.contains("abc") && $0.contains("/") }
        XCTAssertNotNil(setRow, screen)
        // y u copies the URL through OSC 52 (tmux keeps it as a paste buffer); b saves the body.
        try tmux.run(["set-option", "-g", "set-clipboard", "on"])
        try tmux.sendKeys("y", "u")
        try tmux.waitFor(text: "copied the URL")
        XCTAssertEqual(try tmux.run(["show-buffer"]).trimmingCharacters(in: .newlines), "\(base)/cookies/set?sid=abc")
        try tmux.sendKeys("Escape")
        try tmux.waitFor(text: "HOST / PATH")
        try select("/get?long", tmux)
        try tmux.sendKeys("Enter", "b")
        try tmux.waitFor(text: "save the body to: get.json")
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "saved the body of #2")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("get.json"))) as? [String: Any]
        XCTAssertEqual((saved?["args"] as? [String: Any])?["long"] as? String, long)
        // An unbound letter changes nothing (on the Cookies tab, where the bound key below leads again).
        try tmux.sendKeys("6")
        try tmux.waitFor(text: "no cookies set")
        let before = try tmux.capture()
        try tmux.sendKeys("u")
        try tmux.sendKeys("6") // a bound key after it, so the capture below sees both handled
        XCTAssertEqual(try tmux.capture(), before)
        // d: the marked task against the selected one.
        try tmux.sendKeys("Escape")
        try tmux.waitFor(text: "HOST / PATH")
        try select("/cookies/set", tmux)
        try tmux.sendKeys("m")
        try select("/get?long", tmux)
        try tmux.sendKeys("d")
        // (The whole diff, not its title line alone: a capture can land between two writes of one frame.)
        _ = try tmux.waitUntil("the diff with its url row") { $0.contains("diff #1 ⟷ #2") && $0.contains("~ url") }
        try tmux.sendKeys("q") // back from the diff (as Esc)
        try tmux.waitFor(text: "HOST / PATH")
        try tmux.sendKeys("q")
        screen = try tmux.waitUntil("the session to end or ask") { $0.contains("DONE") || $0.contains("quit? (y/n)") }
        if screen.contains("quit? (y/n)") { try tmux.sendKeys("y") }
        try tmux.waitFor(text: "DONE", timeout: 15)
    }

    func testSuspendResumeCancelReplayFilterSaveAndNewRequest() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList("""
            ### big
            GET \(base)/bytes/30000000?rate=6000000

            ### forever
            GET \(base)/fault/drip-forever

            ### plain
            GET \(base)/get?n=1

            ### refused
            GET http://127.0.0.1:1/
            """)
        let tmux = try shell(running: "\(Self.reqtop) run --concurrency 4 \(list)")
        try tmux.waitUntil("the plain GET to complete and the big one to run") { screen in
            (self.row("/get?n=1", in: screen)?.contains("completed") ?? false)
                && (self.row("/bytes/30000000", in: screen)?.contains("running") ?? false)
        }

        // Suspend the large download: its state says so and its size stops growing.
        try select("/bytes/30000000", tmux)
        try tmux.sendKeys("s")
        var screen = try tmux.waitUntil("the download to be suspended") { self.row("/bytes/30000000", in: $0)?.contains("suspended") ?? false }
        let sizeWhenSuspended = try XCTUnwrap(row("/bytes/30000000", in: screen)).split(separator: " ").suffix(7).first
        let later = Date().addingTimeInterval(0.8)
        while Date() < later { _ = try tmux.capture() } // let time pass while watching
        screen = try tmux.capture()
        XCTAssertEqual(try XCTUnwrap(row("/bytes/30000000", in: screen)).split(separator: " ").suffix(7).first, sizeWhenSuspended,
                       "no bytes while suspended")
        try tmux.sendKeys("s")
        try tmux.waitUntil("the download to complete", timeout: 30) { self.row("/bytes/30000000", in: $0)?.contains("completed") ?? false }
        XCTAssertEqual(server.requestCount(path: "/bytes/30000000"), 1, "resuming did not re-send the request")

        // Cancel the endless drip.
        try select("/fault/drip-forever", tmux)
        try tmux.sendKeys("x")
        try tmux.waitUntil("the drip to be cancelled") { self.row("/fault/drip-forever", in: $0)?.contains("cancelled") ?? false }

        // Replay the plain GET: a new row, the server sees it twice.
        try select("/get?n=1", tmux)
        try tmux.sendKeys("r")
        try tmux.waitUntil("the replay to complete") { screen in
            screen.split(separator: "\n").filter { $0.contains("/get?n=1") && $0.contains("completed") }.count == 2
        }
        XCTAssertEqual(server.requestCount(path: "/get"), 2)

        // A new request from the prompt.
        try tmux.sendKeys("n")
        try tmux.waitFor(text: "new request (METHOD URL)")
        try tmux.sendKeys("-l", "GET \(base)/status/418")
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "header (Name: value")
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "Enter sends it as shown")
        try tmux.sendKeys("Enter")
        try tmux.waitUntil("the new request to complete") { self.row("/status/418", in: $0)?.contains("completed") ?? false }

        // Filter failed tasks only.
        try tmux.sendKeys("/")
        try tmux.sendKeys("-l", "state:failed")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor(text: "shown 1/")
        XCTAssertTrue(screen.contains("127.0.0.1:1/"), screen)
        XCTAssertFalse(screen.contains("/status/418"), screen)
        try tmux.sendKeys("Escape")
        try tmux.waitFor(text: "filter cleared")

        // Save the session as HAR: every finished task with a response is in it.
        try tmux.sendKeys("w")
        try tmux.waitFor(text: "save HAR to:")
        try tmux.sendKeys("C-u")
        try tmux.sendKeys("-l", "saved.har")
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "saved 5 tasks to saved.har") // the cancelled drip had a response: in, marked as cancelled
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("saved.har"))) as? [String: Any]
        let entries = try XCTUnwrap((har?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let urls = entries.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
        XCTAssertEqual(urls.filter { $0.hasSuffix("/get?n=1") }.count, 2)
        XCTAssertTrue(urls.contains { $0.hasSuffix("/bytes/30000000?rate=6000000") })
        XCTAssertTrue(urls.contains { $0.hasSuffix("/status/418") })
        let drip = try XCTUnwrap(entries.first { (($0["request"] as? [String: Any])?["url"] as? String)?.hasSuffix("/fault/drip-forever") ?? false })
        XCTAssertTrue((drip["comment"] as? String)?.contains("was cancelled") ?? false, "\(drip)")

        try tmux.sendKeys("q")
        screen = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(screen.contains("EXIT=1"), "a failed and a cancelled task make the exit code 1:\n\(screen)")
        XCTAssertTrue(screen.contains("STTY: icanon echo"), screen)
    }

    /// A list's warnings go to stderr before the screen opens: the bottom line says how many, and
    /// they are on the terminal after quitting.
    func testTheListsWarningsAreCountedOnScreenAndShownAfterQuitting() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList("""
            GET \(base)/anything/city?name=New York
            """)
        let tmux = try shell(running: "\(Self.reqtop) run \(list)")
        try tmux.waitFor(text: "1 warning reading the list: on stderr, seen when you quit")
        try tmux.waitUntil("the request to complete") { self.row("/anything/city", in: $0)?.contains("200") ?? false }
        try tmux.sendKeys("q")
        let screen = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(screen.contains("warning: the URL goes on after a space"), screen)
    }

    /// A request not sent has no row: the header counts it, the bottom line says why, and the
    /// reason is on the terminal after quitting.
    func testARequestNotSentIsCountedSaidAndKeptAfterQuitting() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList("""
            GET \(base)/anything/first

            > {% client.global.set("token", response.body.url) %}

            ###
            GET \(base)/anything/second?token={{token}}
            """)
        // Without its scripts (--no-scripts), the second request needs what only the first's handler sets.
        let tmux = try shell(running: "\(Self.reqtop) run --no-scripts \(list)")
        try tmux.waitUntil("the first request to complete") { self.row("/anything/first", in: $0)?.contains("200") ?? false }
        // The bottom line (two lines when the reason is long) says why, awaited whole.
        let screen = try tmux.waitUntil("the reason on the bottom line") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            let bottom = lines.suffix(3).joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return screen.contains("(1 not sent)") && bottom.contains("/anything/second?token={{token}} ✗ not sent: needs {{token}}")
        }
        let mentions = screen.split(separator: "\n").filter { $0.contains("/anything/second") }
        XCTAssertEqual(mentions.count, 1, "only the bottom line names it, no row:\n\(screen)")
        try tmux.sendKeys("q")
        let after = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(after.contains("GET \(base)/anything/second?token={{token}} ✗ not sent: needs {{token}}"), after)
        XCTAssertTrue(after.contains("EXIT=1"), after)
    }

    /// The same list with its scripts: the handler's token goes out with the second request, whose
    /// own handler's tests show as ✓/✗ after its status and in the Tests tab (7), at 80×24.
    func testScriptsRunInTheInspectorAndTheirTestsShow() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList("""
            GET \(base)/anything/first

            > {% client.global.set("token", "t-" + response.status) %}

            ###
            GET \(base)/anything/second?token={{token}}

            > {%
                client.test("the token went out", () => client.assert(response.body.args.token === "t-200", "sent " + response.body.args.token));
                client.test("a failing check", () => client.assert(response.status === 201, "status " + response.status));
                client.log("second done");
            %}
            """)
        let tmux = try shell(running: "\(Self.reqtop) run \(list)")
        try tmux.resize(width: 80, height: 24)
        let screen = try tmux.waitUntil("the second request to complete with its tests") { screen in
            self.row("second?token=t-200", in: screen)?.contains("200 ✗") ?? false // the handler's token in the URL
        }
        XCTAssertTrue(self.row("/anything/first", in: screen)?.contains("200") ?? false, screen)
        try select("second?token=t-200", tmux)
        try tmux.sendKeys("Enter", "7")
        // The whole tab, not its first line: a capture can come between a frame's first lines and its last.
        let tests = try tmux.waitUntil("the Tests tab with its log line") { $0.contains("── tests: 1 passed, 1 failed ──") && $0.contains("second done") }
        XCTAssertTrue(tests.contains("✓ the token went out"), tests)
        XCTAssertTrue(tests.contains("✗ a failing check") && tests.contains("status 200"), tests)
        try tmux.sendKeys("Escape", "q")
        let after = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(after.contains("EXIT=4"), "a failed test, every request completed: \(after)")
    }

    /// `--dry-run` on a terminal: an escape sequence in a header or a body shows as ␛ instead of
    /// acting, and a multipart body with a binary file shows its text parts and the file's size.
    func testDryRunOnATerminalShowsControlCharactersAndMultipartTextParts() throws {
        let base = server.baseURL.absoluteString
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0xFE]).write(to: scratch.appendingPathComponent("logo.png"))
        let list = try writeList("""
            POST \(base)/upload
            Content-Type: multipart/form-data; boundary=XYZ
            X-Note: before\u{1B}[31mAFTER

            --XYZ
            Content-Disposition: form-data; name="title"

            A \u{1B}[32mtitle
            --XYZ
            Content-Disposition: form-data; name="logo"; filename="logo.png"

            < ./logo.png
            --XYZ--
            """)
        let tmux = try shell(running: "\(Self.reqtop) run --dry-run \(list)")
        let screen = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(screen.contains("X-Note: before␛[31mAFTER"), screen)
        XCTAssertTrue(screen.contains("A ␛[32mtitle"), screen)
        XCTAssertTrue(screen.contains("<7 bytes of binary data>"), screen)
        XCTAssertTrue(screen.contains("Content-Disposition: form-data; name=\"logo\"; filename=\"logo.png\""), screen)
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        let colours = try tmux.capture(escapes: true)
        XCTAssertFalse(colours.contains("\u{1B}[31m") || colours.contains("\u{1B}[32m"), "no colour reached the terminal:\n\(colours)")
    }

    func testBodyIsLiveWhileRunningPartialWhenCancelledAndKeptAfterExit() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList("""
            ### slow
            GET \(base)/drip?numbytes=3000&duration=30

            ### big
            GET \(base)/bytes/9000000

            ### json
            GET \(base)/json
            """)
        let tmux = try shell(running: "\(Self.reqtop) run --concurrency 3 --keep-bodies kept \(list)")
        try tmux.waitUntil("the big body and the JSON to complete") { screen in
            (self.row("/bytes/9000000", in: screen)?.contains("completed") ?? false) && (self.row("/json", in: screen)?.contains("completed") ?? false)
        }
        // The drip's body so far, live in the Body tab.
        try select("/drip", tmux)
        try tmux.sendKeys("Enter", "3")
        try tmux.waitUntil("the body so far, growing") { $0.contains("(receiving: ") && $0.contains("**********") }
        // Cancelled: what arrived stays, marked partial.
        try tmux.sendKeys("x")
        var screen = try tmux.waitFor(text: "(partial: cancelled after ")
        XCTAssertTrue(screen.contains("**********"), screen)
        try tmux.sendKeys("q")
        screen = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(screen.contains("kept 3 bodies"), screen)
        let kept = scratch.appendingPathComponent("kept")
        let index = try String(contentsOf: kept.appendingPathComponent("index.tsv"), encoding: .utf8)
        let rows = index.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        XCTAssertEqual(rows.map { $0[4] }.sorted(), ["cancelled", "completed", "completed"], index)
        for row in rows {
            let size = try FileManager.default.attributesOfItem(atPath: kept.appendingPathComponent(row[5]).path)[.size] as? Int
            if row[2].hasSuffix("/bytes/9000000") { XCTAssertEqual(size, 9_000_000, "the spilled body, whole") }
            if row[2].hasSuffix("/json") { XCTAssertEqual(row[5], "3-json.json") }
            if row[2].contains("/drip") { XCTAssertGreaterThan(size ?? 0, 0) }
        }
    }

    /// At 80×24, a list with a long name and tasks in every state: the header has every count with
    /// its label, and a message longer than a line (a request not sent) is on two lines, whole.
    func testTheHeaderAndALongMessageAreReadableAt80x24() throws {
        let base = server.baseURL.absoluteString
        // A Hurl list: its xpath entry is not sent, with a reason longer than one line at 80 columns.
        let list = try writeList("""
            GET \(base)/get

            GET \(base)/status/500

            GET http://127.0.0.1:1/refused

            GET \(base)/drip?numbytes=100&duration=3

            GET \(base)/html
            HTTP 200
            [Asserts]
            xpath "string(//h1)" == "Herman Melville - Moby-Dick"
            """)
        let long = (list as NSString).deletingLastPathComponent + "/a-request-list-with-a-long-name-for-the-header.hurl"
        try FileManager.default.moveItem(atPath: list, toPath: long)
        let tmux = try shell(running: "\(Self.reqtop) run --concurrency 4 \(long)")
        try tmux.resize(width: 80, height: 24)
        let screen = try tmux.waitUntil("every count on the header") { screen in
            let header = screen.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            return header.contains("1 running") && header.contains("2 completed") || header.contains("2 done") && header.contains("1 failed")
        }
        let header = String(screen.split(separator: "\n", omittingEmptySubsequences: false)[0])
        XCTAssertTrue(header.range(of: #"1 running +0 susp(ended)? +2 (completed|done) +1 failed +0 canc(elled)?$"#, options: .regularExpression) != nil,
                      header)
        try tmux.waitUntil("the not-sent reason, whole on two lines") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let bottom = lines.suffix(3).joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return bottom.contains("not sent: xpath queries are not evaluated by reqtop (no XML/HTML engine): this entry is not sent")
                && bottom.contains("q quit")
        }
        try tmux.waitFor(text: "0 running")
        try tmux.sendKeys("q")
        try tmux.waitFor(text: "DONE", timeout: 15)
    }

    func testHTMLXMLAndJSONBodiesAreLaidOutAt80x24() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList("GET \(base)/html\n\n###\nGET \(base)/xml\n\n###\nGET \(base)/json\n")
        let tmux = try shell(running: "\(Self.reqtop) run \(list)")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor(text: "3 completed")
        try tmux.sendKeys("g", "Enter", "3")
        // Each line awaited: a capture may land between two parts of a repaint.
        _ = try tmux.waitFor(text: "  <head>")
        _ = try tmux.waitFor(text: "    <title>Herman Melville - Moby-Dick</title>")
        _ = try tmux.waitFor(text: "      p.lead { margin: 0 }") // style keeps its own lines, re-indented
        try tmux.sendKeys("Escape", "j", "Enter", "3")
        _ = try tmux.waitFor(text: "  <slide type=\"all\">")
        _ = try tmux.waitFor(text: "    <title>Wake up to WonderWidgets!</title>")
        _ = try tmux.waitFor(text: "    <item/>")
        try tmux.sendKeys("Escape", "j", "Enter", "3")
        _ = try tmux.waitFor(text: "\"zeta\": 1,")
        _ = try tmux.waitFor(text: "    \"empty\": {},")
        _ = try tmux.waitFor(text: "        2.50,") // numbers as written
        try tmux.sendKeys("q")
        try tmux.waitFor(text: "DONE", timeout: 15)
    }

    func testAPastedRequestIsTextNeverKeysAndIsShownBeforeItIsSent() throws {
        let base = server.baseURL.absoluteString
        let tmux = try shell(running: "\(Self.reqtop)")
        try tmux.waitFor(text: "no tasks yet")
        // A 4-line JSON body pasted at the n prompt as an .http block: its q, x, l, n are text.
        try tmux.sendKeys("n")
        try tmux.waitFor(text: "new request")
        try tmux.paste("POST \(base)/post\nContent-Type: application/json\n\n{\n  \"q\": \"xln\",\n  \"n\": 1\n}")
        var screen = try tmux.waitFor(text: "Enter sends it as shown")
        XCTAssertTrue(screen.contains("User-Agent: reqtop/"), "the added fields are shown: \(screen)")
        XCTAssertFalse(screen.contains("Accept-Encoding"), "compression only when asked, as in reqtop run: \(screen)")
        XCTAssertTrue(screen.contains("\"q\": \"xln\","), screen)
        XCTAssertEqual(server.requestCount(path: "/post"), 0, "nothing sent before Enter")
        try tmux.sendKeys("Enter")
        try tmux.waitUntil("the POST to complete") { self.row("/post", in: $0)?.contains("200") ?? false }
        XCTAssertEqual(server.requestLog.last?.bodySize, "{\n  \"q\": \"xln\",\n  \"n\": 1\n}".utf8.count, "the body as pasted, line breaks and all")
        // A pasted curl command on the table; Ctrl-C in a prompt closes the prompt, not reqtop.
        try tmux.paste("curl -s '\(base)/get?pasted=1' -H 'X-From: paste'")
        try tmux.waitFor(text: "Enter sends it as shown")
        try tmux.sendKeys("Enter")
        try tmux.waitUntil("the pasted GET to complete") { self.row("/get?pasted=1", in: $0)?.contains("200") ?? false }
        try tmux.sendKeys("/")
        try tmux.waitFor(text: "filter (")
        try tmux.sendKeys("C-c")
        screen = try tmux.waitFor(text: "closed: nothing done")
        XCTAssertFalse(screen.contains("DONE"))
        try tmux.sendKeys("q")
        try tmux.waitFor(text: "DONE", timeout: 15)
    }

    /// An X10 mouse report (`ESC [ M b x y`, each byte + 32, cells 1-based) as a terminal sends it.
    private func mouse(_ button: Int, x: Int, y: Int) -> String {
        "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + x))) + String(UnicodeScalar(UInt8(33 + y)))
    }

    func testClicksSelectAndOpenAndNoMouseLeavesTheMouseToTheTerminal() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList((1...3).map { "GET \(base)/get?row=\($0)" }.joined(separator: "\n\n###\n"))
        let tmux = try shell(running: "\(Self.reqtop) run \(list)")
        try tmux.waitFor(text: "3 completed")
        try tmux.waitFor(format: "#{mouse_standard_flag}", toBe: "1")
        // Click the third row (screen row 5), then x: it acts on task 3.
        try tmux.sendKeys("-l", mouse(0, x: 2, y: 5) + mouse(3, x: 2, y: 5))
        // curses reports a click once a double-click can no longer follow: wait for the highlight to move.
        try tmux.waitUntil("the third row to be selected", escapes: true) { screen in
            screen.split(separator: "\n").first { $0.contains("row=3") }?.contains("\u{1B}[7m") ?? false
        }
        try tmux.sendKeys("x")
        try tmux.waitFor(text: "task #3 has already ended")
        // Double-click the first row opens it; a click on a tab picks it.
        try tmux.sendKeys("-l", mouse(0, x: 2, y: 3) + mouse(3, x: 2, y: 3) + mouse(0, x: 2, y: 3) + mouse(3, x: 2, y: 3))
        let screen = try tmux.waitFor(text: "#1 GET")
        let tabs = try XCTUnwrap(screen.split(separator: "\n").first { $0.contains("Request │ Response") })
        let timing = tabs.distance(from: tabs.startIndex, to: tabs.range(of: "Timing")!.lowerBound)
        try tmux.sendKeys("-l", mouse(0, x: timing, y: 1) + mouse(3, x: timing, y: 1))
        try tmux.waitFor(text: "Waterfall")
        try tmux.sendKeys("q")
        try tmux.waitFor(text: "DONE", timeout: 15)

        let plain = try shell(running: "\(Self.reqtop) run --no-mouse \(list)")
        try plain.waitFor(text: "3 completed")
        XCTAssertEqual(try plain.display("#{mouse_any_flag}"), "0", "--no-mouse asks the terminal for no mouse reports")
        try plain.sendKeys("q")
        try plain.waitFor(text: "DONE", timeout: 15)
    }

    func testAKilledSessionLeavesAJournalThatOpensWithEveryFinishedTask() throws {
        let base = server.baseURL.absoluteString
        let list = try writeList("""
            ### quick
            GET \(base)/get?journal=1

            ### moved
            GET \(base)/redirect/2

            ### slow
            GET \(base)/drip?numbytes=100&duration=60
            """)
        let tmux = try shell(running: "\(Self.reqtop) run --concurrency 3 \(list)")
        try tmux.waitUntil("two tasks to finish and the drip to run") { screen in
            screen.contains("2 completed") && (self.row("/drip", in: screen)?.contains("running") ?? false)
        }
        // kill -9: no chance to flush or clean up.
        let pid = try XCTUnwrap(Int32(try tmux.run(["display-message", "-p", "-t", "reqtop", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)))
        let child = try XCTUnwrap(childProcess(of: pid, named: "reqtop"), "no reqtop under the shell \(pid)")
        XCTAssertEqual(kill(child, SIGKILL), 0)
        try tmux.waitFor(text: "EXIT=137")
        let state = scratch.appendingPathComponent("state").path
        let sessions = try Subprocess.run(Self.reqtop, ["sessions"], environment: ["XDG_STATE_HOME": state])
        XCTAssertEqual(sessions.status, 0, sessions.stderrText)
        let line = try XCTUnwrap(sessions.stdoutText.split(separator: "\n").first.map(String.init), sessions.stderrText)
        XCTAssertTrue(line.contains("3 tasks") && line.hasSuffix("session.http"), line)
        let id = String(line.prefix { $0 != " " })
        // The journal converts to HAR with the two finished tasks (a redirect is an entry per hop).
        let har = try Subprocess.run(Self.reqtop, ["convert", id, "--to", "har"], environment: ["XDG_STATE_HOME": state])
        XCTAssertEqual(har.status, 0, har.stderrText)
        let object = try JSONSerialization.jsonObject(with: Data(har.stdoutText.utf8)) as? [String: Any]
        let entries = try XCTUnwrap((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let urls = entries.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
        XCTAssertEqual(urls.filter { $0.hasSuffix("/get?journal=1") }.count, 1, "\(urls)")
        XCTAssertEqual(urls.filter { $0.contains("/redirect/") || $0.hasSuffix("/get") }.count, 3, "\(urls)")
        // And it opens: the finished tasks as they were, the drip marked unfinished, read-only.
        let open = try shell(running: "\(Self.reqtop) open \(id)")
        var screen = try open.waitFor(text: "read-only")
        XCTAssertTrue(screen.contains("2 completed") && screen.contains("1 failed"), screen)
        try select("/drip", open)
        try open.sendKeys("x")
        try open.waitFor(text: "is a saved task (read-only)")
        try open.sendKeys("Enter", "5")
        screen = try open.waitFor(text: "unfinished: the session ended before this task did")
        try open.sendKeys("Escape", "q")
        try open.waitFor(text: "DONE", timeout: 15)
    }

    /// The example app, publishing its events on a socket in the scratch folder.
    private func startExampleApp() throws -> (RunningProcess, String) {
        let socket = scratch.appendingPathComponent("app.sock").path
        let app = try RunningProcess(TestEnvironment.builtProduct("reqtop-example-app"), ["--socket", socket])
        addTeardownBlock { app.send(signal: SIGKILL); _ = app.waitForExit(timeout: 5) }
        XCTAssertNotNil(app.waitForLine { $0.contains("publishing on") }, app.stderrText)
        return (app, socket)
    }

    func testAttachShowsAnotherProgramsRequestsSendsCommandsBackAndKeepsThemWhenItExits() throws {
        let (app, socket) = try startExampleApp()
        let tmux = try shell(running: "\(Self.reqtop) attach \(socket)")
        var screen = try tmux.waitFor(text: "reqtop-example-app pid")
        try tmux.waitUntil("the app's login and download to show") { screen in
            (self.row("/post", in: screen)?.contains("login") ?? false) && screen.contains("download")
        }
        // Cancel the app's running download from here: the app allowed remote control.
        try tmux.waitUntil("a download to run") { $0.split(separator: "\n").contains { $0.contains("download") && $0.contains("running") } }
        screen = try tmux.capture()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try XCTUnwrap(lines.firstIndex { $0.contains("HOST / PATH") })
        let target = try XCTUnwrap(lines.lastIndex { $0.contains("download") && $0.contains("running") })
        try tmux.sendKeys("g")
        for _ in 0..<(target - header - 1) { try tmux.sendKeys("j") }
        try tmux.sendKeys("x")
        try tmux.waitFor(text: "asked the app to cancel")
        try tmux.waitUntil("the download to be cancelled in the app") { $0.contains("download") && $0.contains("cancelled") }
        // The app exits: the table says so and keeps everything.
        app.send(signal: SIGTERM)
        screen = try tmux.waitFor(text: "DISCONNECTED")
        XCTAssertTrue(screen.contains("login"), screen)
        try tmux.sendKeys("q")
        try tmux.waitFor(text: "DONE", timeout: 15)
    }

    func testAttachHeadlessPrintsTheStreamAsJSONLines() throws {
        let (app, socket) = try startExampleApp()
        let attach = try RunningProcess(Self.reqtop, ["attach", socket, "--headless", "--events", "jsonl"])
        let completed = attach.waitForLine { $0.contains(#""event":"completed""#) }
        XCTAssertNotNil(completed, attach.stderrText)
        let object = try JSONSerialization.jsonObject(with: Data((completed ?? "{}").utf8)) as? [String: Any]
        XCTAssertNotNil(object?["timings"], "the plain JSON Lines schema")
        app.send(signal: SIGTERM)
        XCTAssertEqual(attach.waitForExit(timeout: 10), 0, attach.stderrText)
        XCTAssertTrue(attach.stderrText.contains("disconnected"), attach.stderrText)
        XCTAssertEqual(app.waitForExit(timeout: 10), 0, "the app stops publishing on SIGTERM and exits")
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "and its socket file is gone")
    }

    func testProxiedRequestsAppearInTheTableWithTheirWireHeads() throws {
        let port = unusedLoopbackPort()
        let tmux = try shell(running: "\(Self.reqtop) proxy --port \(port)")
        try tmux.waitFor(text: "proxy http://127.0.0.1:\(port)")
        let curl = try XCTUnwrap(findExecutable(named: "curl"))
        let result = try Subprocess.run(curl, ["-sS", "-o", "/dev/null", "-x", "http://127.0.0.1:\(port)", "-H", "X-Seen: by-reqtop",
                                               server.url("/get?via=proxy").absoluteString])
        XCTAssertEqual(result.status, 0, result.stderrText)
        try tmux.waitUntil("the proxied GET in the table") { self.row("/get?via=proxy", in: $0)?.contains("200") ?? false }
        try tmux.sendKeys("Enter")
        let detail = try tmux.waitFor(text: "X-Seen")
        XCTAssertTrue(detail.contains("GET /get?via=proxy HTTP/1.1"), "the request as it went on the wire\n\(detail)")
        try tmux.sendKeys("q")
        try tmux.sendKeys("q")
        XCTAssertTrue(try tmux.waitFor(text: "DONE").contains("EXIT=0"))
    }

    /// A chunked POST through the proxy is recorded whole: its body is in the Request tab and the
    /// HAR, and `r` sends the same bytes again (before, the record had no body and a replay went out empty).
    func testAChunkedPostThroughTheProxyIsRecordedWithItsBodyAndReplaysTheSameBytes() throws {
        let port = unusedLoopbackPort()
        let tmux = try shell(running: "\(Self.reqtop) proxy --port \(port)")
        try tmux.waitFor(text: "proxy http://127.0.0.1:\(port)")
        let body = "chunked-through-the-proxy-" + UUID().uuidString
        let file = scratch.appendingPathComponent("body.txt")
        try Data(body.utf8).write(to: file)
        let curl = try XCTUnwrap(findExecutable(named: "curl"))
        let result = try Subprocess.run(curl, ["-sS", "-o", "/dev/null", "-x", "http://127.0.0.1:\(port)", "-H", "Transfer-Encoding: chunked",
                                               "--data-binary", "@" + file.path, server.url("/post?proxied=chunked").absoluteString])
        XCTAssertEqual(result.status, 0, result.stderrText)
        try tmux.waitUntil("the proxied POST in the table") { self.row("/post?proxied=chunked", in: $0)?.contains("200") ?? false }
        try tmux.sendKeys("Enter")
        let detail = try tmux.waitFor(text: body)
        XCTAssertTrue(detail.contains("Transfer-Encoding: chunked"), "the head as it went upstream, then its body\n\(detail)")
        try tmux.sendKeys("Escape")
        try tmux.waitFor(text: "HOST / PATH")
        try tmux.sendKeys("r")
        try tmux.waitUntil("the replay to complete") { screen in
            screen.split(separator: "\n").filter { $0.contains("/post?proxied=chunked") && $0.contains("200") }.count == 2
        }
        let sent = server.requestLog.filter { $0.target == "/post?proxied=chunked" }
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(Set(sent.map(\.bodySHA256)), [SHA256.hex(of: Data(body.utf8))], "the replay sent the same bytes")

        try tmux.sendKeys("w")
        try tmux.waitFor(text: "save HAR to:")
        try tmux.sendKeys("C-u")
        try tmux.sendKeys("-l", "proxied.har")
        try tmux.sendKeys("Enter")
        try tmux.waitFor(text: "saved 2 tasks to proxied.har")
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("proxied.har"))) as? [String: Any]
        let entries = try XCTUnwrap((har?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.map { (($0["request"] as? [String: Any])?["postData"] as? [String: Any])?["text"] as? String }, [body, body])
        try tmux.sendKeys("q")
        XCTAssertTrue(try tmux.waitFor(text: "DONE").contains("EXIT=0"))
    }

    func testAnInteractiveSessionWithAFailedTaskExitsOne() throws {
        let tmux = try shell(running: "\(Self.reqtop) http://127.0.0.1:1/")
        try tmux.waitFor(text: "cannotConnect")
        try tmux.sendKeys("q")
        let screen = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(screen.contains("EXIT=1"), "the README: 1 when a task failed or was cancelled\n\(screen)")
    }

    func testEditOpensTheRequestInTheEditorAndSendsTheEditedCopy() throws {
        // A scripted "editor" that changes the query of the request it is given.
        let tmux = try shell(running: "EDITOR='sed -i s/edit=1/edit=2/' \(Self.reqtop) '\(server.baseURL.absoluteString)/get?edit=1'")
        try tmux.waitUntil("the first GET to complete") { self.row("/get?edit=1", in: $0)?.contains("completed") ?? false }
        try tmux.sendKeys("e")
        let screen = try tmux.waitUntil("the edited copy to complete") { self.row("/get?edit=2", in: $0)?.contains("completed") ?? false }
        XCTAssertTrue(screen.contains("HOST / PATH"), "the table is back after the editor")
        XCTAssertEqual(server.requestLog.map(\.target), ["/get?edit=1", "/get?edit=2"])
        try tmux.sendKeys("q")
        XCTAssertTrue(try tmux.waitFor(text: "DONE").contains("EXIT=0"))
    }

    func testResizingToTinySizesAndCtrlCRestoreTheTerminal() throws {
        let tmux = try shell(running: "\(Self.reqtop) '\(server.baseURL.absoluteString)/fault/drip-forever'")
        try tmux.waitFor(text: "/fault/drip-forever")
        for (w, h) in [(20, 5), (1, 1), (200, 60), (120, 40)] {
            try tmux.resize(width: w, height: h)
            try tmux.waitFor(format: "#{window_width}x#{window_height}", toBe: "\(w)x\(h)")
            // Redrawn at the new size (narrow, the header keeps the counts and drops the title).
            if w >= 20 { try tmux.waitFor(text: w >= 80 ? "reqtop · " : " 1 run") }
            XCTAssertEqual(try tmux.display("#{pane_dead}"), "0", "still running at \(w)x\(h)")
        }
        try tmux.waitFor(text: "HOST / PATH")
        try tmux.sendKeys("C-c")
        let screen = try tmux.waitFor(text: "DONE", timeout: 15)
        XCTAssertTrue(screen.contains("EXIT=130"), screen)
        XCTAssertTrue(screen.contains("STTY: icanon echo"), screen)
        XCTAssertEqual(try tmux.display("#{alternate_on}"), "0")
    }
}
