// reqtop-kit-demo: a small screen of the terminal kit (tabs, gauge, table, sparkline, status line)
// that a background timer updates. The tmux end-to-end tests drive it; `q` quits, Ctrl-C/SIGTERM end it,
// and with REQTOP_DEMO_ALLOW_CRASH=1 the `!` key traps (to test the crash-signal tty restore).
// REQTOP_DEMO_TICK_MS sets the timer period (default 100 ms).
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import ReqtopNcurses
import ReqtopSync
import ReqtopTerminalUI

/// What the timer changes, read by the render closure on the loop thread.
struct DemoModel: Sendable {
    var ticks = 0
    var rates: [Double] = []
}

/// Screen state owned by the loop thread.
struct DemoScreen {
    var tab = 0
    var table = TableState(selected: 0)
    var lastKey = "none"
    var frames = 0
}

func runDemo() -> Int32 {
    let model = Protected(DemoModel())
    let loop = EventLoop()
    let dirty = loop.dirtyFlag
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
    let tickMilliseconds = getenv("REQTOP_DEMO_TICK_MS").flatMap { Int(String(cString: $0)) } ?? 100
    timer.schedule(deadline: .now() + .milliseconds(tickMilliseconds), repeating: .milliseconds(tickMilliseconds))
    timer.setEventHandler {
        model.withLock { m in
            m.ticks += 1
            m.rates.append(Double((m.ticks * 7) % 23))
            if m.rates.count > 200 { m.rates.removeFirst() }
        }
        dirty.markDirty()
    }
    timer.resume()
    defer { timer.cancel() }

    var screen = DemoScreen()
    let pid = getpid()
    let rowCount = 100_000
    let allowCrash = getenv("REQTOP_DEMO_ALLOW_CRASH").map { String(cString: $0) == "1" } ?? false
    let reason = loop.run(onKey: { key in
        switch key {
        case .char("q"): return .quit
        case .char("!") where allowCrash: fatalError("reqtop-kit-demo: crash requested with '!' (REQTOP_DEMO_ALLOW_CRASH=1)")
        case .tab: screen.tab = (screen.tab + 1) % 3
        case .down, .char("j"): screen.table.moveSelection(by: 1, rowCount: rowCount)
        case .up, .char("k"): screen.table.moveSelection(by: -1, rowCount: rowCount)
        default: break
        }
        screen.lastKey = "\(key)"
        return .redraw
    }, render: { frame in
        let m = model.snapshot
        screen.frames += 1
        let area = frame.area
        let parts = Layout.vertical([.fixed(1), .fixed(1), .fill(1), .fixed(2), .fixed(1)]).split(area)
        frame.render(Tabs(["Tasks", "Events", "About"], selected: screen.tab), in: parts[0])
        let ratio = Double(m.ticks % 100) / 100
        frame.render(Gauge(ratio: ratio, label: "\(m.ticks % 100)%", barStyle: Style(fg: .green)), in: parts[1])
        let source = ClosureTableDataSource(rowCount: rowCount) { i in
            TableRow(["\(i)", i % 3 == 0 ? "GET" : "POST", "/items/\(i)", "\((i * 37) % 1000) B"])
        }
        let table = Table(columns: [
            TableColumn("id", width: .fixed(6), alignment: .right),
            TableColumn("method", width: .fixed(6)),
            TableColumn("path", width: .flex(1)),
            TableColumn("size", width: .fixed(8), alignment: .right),
        ], source: source, highlightStyle: Style(fg: .black, bg: .cyan))
        frame.render(table, in: parts[2], state: &screen.table)
        frame.render(Sparkline(m.rates, maximum: 22, style: Style(fg: .yellow)), in: parts[3])
        frame.render(StatusLine(left: "\(area.width)x\(area.height)  ticks: \(m.ticks)  pid: \(pid)",
                                right: "frames: \(screen.frames)  key: \(screen.lastKey)  q quit"), in: parts[4])
    })
    let message: String
    switch reason {
    case .quit: message = "quit"
    case .signal(let signo): message = "signal \(signo)"
    case .inputClosed: message = "input closed"
    case .startFailed(let why): message = "could not start: \(why)"
    }
    fputs("reqtop-kit-demo: exited (\(message))\n", stderr_stream())
    return reason.exitCode
}

/// Glibc's `stderr` is a global var that strict concurrency rejects; open our own stream on fd 2.
func stderr_stream() -> UnsafeMutablePointer<FILE> { fdopen(2, "w") }

exit(runDemo())
