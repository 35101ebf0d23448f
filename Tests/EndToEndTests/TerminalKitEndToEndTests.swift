import Foundation
import ReqtopTestSupport
import XCTest

/// The demo executable has not been built.
struct DemoMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "\(path) is missing: run `swift build` (or `swift build --product reqtop-kit-demo`) before `swift test`" }
}

/// Runs `reqtop-kit-demo` in a private tmux server and checks redraws, resizes and terminal restoration.
///
/// Needs the demo built first (`swift build`, which `make test` runs before `swift test`).
final class TerminalKitEndToEndTests: XCTestCase {
    /// `.build/debug/reqtop-kit-demo` in this package.
    private static let demoPath = TestEnvironment.builtProduct("reqtop-kit-demo")

    private func demoCommand(environment: String = "env -u NO_COLOR") throws -> String {
        if Tmux.executablePath == nil && !TestEnvironment.isCI { throw XCTSkip("tmux is not installed") }
        guard FileManager.default.isExecutableFile(atPath: Self.demoPath) else { throw DemoMissing(path: Self.demoPath) }
        return "\(environment) SWIFT_BACKTRACE=interactive=no \(Self.demoPath)"
    }

    /// A shell that runs the demo, then reports its exit status and the tty modes, and stays open.
    private func startShell(around command: String) throws -> Tmux {
        let script = "trap : INT; echo BEFORE-DEMO; \(command); echo \"EXIT=$?\"; "
            + "echo \"STTY: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')\"; "
            + "echo DONE; sleep 60"
        let tmux = try Tmux(arguments: ["sh", "-c", script])
        addTeardownBlock { tmux.kill() }
        return tmux
    }

    private func ticks(in screen: String) -> Int? {
        guard let range = screen.range(of: #"ticks: \d+"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst("ticks: ".count))
    }

    private func pid(in screen: String) throws -> pid_t {
        let range = try XCTUnwrap(screen.range(of: #"pid: \d+"#, options: .regularExpression), "no pid on screen:\n\(screen)")
        return try XCTUnwrap(pid_t(screen[range].dropFirst("pid: ".count)))
    }

    /// After the demo ended: the shell's text is back (alternate screen off), cursor visible, tty cooked.
    private func assertTerminalRestored(_ tmux: Tmux, exitStatus: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let screen = try tmux.waitFor(text: "DONE")
        XCTAssertTrue(screen.contains("BEFORE-DEMO"), "the pre-run shell text is not visible:\n\(screen)", file: file, line: line)
        XCTAssertTrue(screen.contains("EXIT=\(exitStatus)"), "expected exit status \(exitStatus):\n\(screen)", file: file, line: line)
        XCTAssertTrue(screen.contains("STTY: icanon echo"), "tty not restored:\n\(screen)", file: file, line: line)
        XCTAssertEqual(try tmux.display("#{alternate_on}"), "0", "alternate screen still on", file: file, line: line)
        XCTAssertEqual(try tmux.display("#{cursor_flag}"), "1", "cursor still hidden", file: file, line: line)
    }

    func testDemoRedrawsWhenTheBackgroundTimerTicks() throws {
        let tmux = try startShell(around: try demoCommand())
        let first = try XCTUnwrap(ticks(in: try tmux.waitFor(text: "ticks: ")))
        let later = try tmux.waitUntil("the tick counter to pass \(first)") { (self.ticks(in: $0) ?? 0) > first }
        XCTAssertTrue(later.contains("120x40"))
        XCTAssertTrue(later.contains("Tasks │ Events │ About"))
    }

    func testRedrawsAreCoalescedToAtMost60FramesPerSecond() throws {
        let tmux = try startShell(around: try demoCommand(environment: "env -u NO_COLOR REQTOP_DEMO_TICK_MS=1"))
        let firstScreen = try tmux.waitFor(text: "frames: ")
        let start = Date()
        let firstFrames = try XCTUnwrap(number(after: "frames: ", in: firstScreen))
        let firstTicks = try XCTUnwrap(ticks(in: firstScreen))
        let lastScreen = try tmux.waitUntil("500 more ticks", timeout: 30) { (self.ticks(in: $0) ?? 0) >= firstTicks + 500 }
        let elapsed = Date().timeIntervalSince(start)
        let frames = try XCTUnwrap(number(after: "frames: ", in: lastScreen)) - firstFrames
        let ticks = try XCTUnwrap(ticks(in: lastScreen)) - firstTicks
        // FrameRate.defaultFramesPerSecond: 60.
        XCTAssertLessThanOrEqual(Double(frames), 60 * elapsed + 2, "\(frames) frames in \(elapsed)s for \(ticks) ticks")
        XCTAssertLessThan(frames, ticks / 5, "redraw requests were not coalesced")
        XCTAssertGreaterThan(frames, 0)
    }

    private func number(after label: String, in screen: String) -> Int? {
        guard let range = screen.range(of: label + #"\d+"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst(label.count))
    }

    func testResizingToTinyAndHugeSizesKeepsTheDemoRunning() throws {
        let tmux = try startShell(around: try demoCommand())
        let demo = try pid(in: try tmux.waitFor(text: "pid: "))
        try tmux.resize(width: 20, height: 5)
        try tmux.waitFor(text: "20x5  ticks")
        try tmux.resize(width: 1, height: 1)
        try tmux.waitFor(format: "#{window_width}x#{window_height}", toBe: "1x1")
        XCTAssertEqual(kill(demo, 0), 0, "the demo died at 1x1")
        try tmux.resize(width: 200, height: 60)
        let screen = try tmux.waitFor(text: "200x60  ticks")
        XCTAssertEqual(kill(demo, 0), 0, "the demo died after resizing")
        XCTAssertEqual(screen.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.contains("/items/") }.count, 60 - 6)
    }

    func testQuitKeyRestoresTheTerminal() throws {
        let tmux = try startShell(around: try demoCommand())
        try tmux.waitFor(text: "ticks: ")
        try tmux.sendKeys("q")
        try assertTerminalRestored(tmux, exitStatus: 0)
    }

    func testCtrlCExitsWith130AndRestoresTheTerminal() throws {
        let tmux = try startShell(around: try demoCommand())
        try tmux.waitFor(text: "ticks: ")
        try tmux.sendKeys("C-c")
        try assertTerminalRestored(tmux, exitStatus: 130)
    }

    func testSIGTERMExitsWith143AndRestoresTheTerminal() throws {
        let tmux = try startShell(around: try demoCommand())
        let demo = try pid(in: try tmux.waitFor(text: "pid: "))
        XCTAssertEqual(kill(demo, SIGTERM), 0)
        try assertTerminalRestored(tmux, exitStatus: 143)
    }

    func testCrashRestoresTheTerminalBeforeTheProcessDies() throws {
        let tmux = try startShell(around: try demoCommand(environment: "env REQTOP_DEMO_ALLOW_CRASH=1"))
        try tmux.waitFor(text: "ticks: ")
        try tmux.sendKeys("!")
        let screen = try tmux.waitFor(text: "DONE", timeout: 60)
        XCTAssertNil(screen.range(of: "EXIT=0\n"), "the crash should not exit 0:\n\(screen)")
        XCTAssertTrue(screen.contains("STTY: icanon echo"), "tty not restored after a crash:\n\(screen)")
        XCTAssertEqual(try tmux.display("#{alternate_on}"), "0", "alternate screen still on after a crash")
        XCTAssertEqual(try tmux.display("#{cursor_flag}"), "1", "cursor still hidden after a crash")
    }

    func testDemoDrawsColoursUnlessNO_COLORIsSet() throws {
        let colored = try startShell(around: try demoCommand())
        try colored.waitUntil("a coloured gauge", escapes: true) { $0.contains("\u{1B}[32m") || $0.contains("\u{1B}[38;5;2m") }
        let plain = try startShell(around: try demoCommand(environment: "NO_COLOR=1"))
        let screen = try plain.waitUntil("ticks on a plain screen", escapes: true) { $0.contains("ticks: ") }
        XCTAssertNil(screen.range(of: "\u{1B}\\[(3|4)[0-7]m|\u{1B}\\[(38|48);5", options: .regularExpression),
                     "NO_COLOR=1 still drew colours")
        XCTAssertTrue(screen.contains("\u{1B}[7m"), "reverse video should remain without colours")
    }

    /// `make demo` in a terminal window that is then closed: make gets the SIGHUP, the program under it
    /// does not, and its terminal reads as hung up. It ends instead of spinning on that at full CPU.
    func testTheDemoEndsWhenItsTerminalHangsUpUnderMake() throws {
        let command = try demoCommand()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-hangup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "run:\n\t\(command)\n".write(to: folder.appendingPathComponent("Makefile"), atomically: true, encoding: .utf8)
        let tmux = try Tmux(arguments: ["make", "-s", "-C", folder.path, "run"])
        addTeardownBlock { tmux.kill() }
        let demo = try pid(in: try tmux.waitFor(text: "pid: "))
        addTeardownBlock { _ = Glibc.kill(demo, SIGKILL) } // a demo still running when the test fails
        try tmux.run(["kill-session", "-t", "reqtop"])
        // Gone, or a zombie its new parent has not reaped yet.
        func running() -> Bool {
            guard Glibc.kill(demo, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(demo)/stat", encoding: .utf8) else { return false }
            return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
        }
        let deadline = Date().addingTimeInterval(10)
        while running(), Date() < deadline { usleep(20_000) } // polls for the exit; the deadline bounds it
        XCTAssertFalse(running(), "the demo still runs 10 s after its terminal hung up")
    }
}
