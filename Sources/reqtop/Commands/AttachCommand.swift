import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopTasks
import ReqtopSync
import ReqtopTerminalText

/// `reqtop attach [SOCKET]`: another program's requests, live, from its event stream.
enum AttachCommand: Command {
    static let name = "attach"
    static let arguments = "[SOCKET] [--follow] [--headless] [--events text|jsonl] [--no-mouse] [--no-journal]"
    static let briefArguments = "[SOCKET] [options]"
    static let abstract = "watch another program's requests live (its event stream socket)"
    static let discussion = """
        Shows the requests of a program that embeds reqtop's networking library and publishes
        its events (manager.publishEvents(at:) or REQTOP_SOCKET=PATH): the same table, detail,
        timeline, filters, marks, diff and HAR save as reqtop's own requests. s and x go back to
        the program when it allows remote control; r replays a request with reqtop's own
        manager. When the program exits the table says so and keeps everything; --follow
        reconnects when the socket comes back. Without SOCKET, lists the sockets in
        $XDG_RUNTIME_DIR/reqtop/ (or /tmp/reqtop-UID/).
        """
    static let follow = CommandOption.flag("follow", help: "reconnect when the program comes back")
    static let options = [follow] + HeadlessOptions.options + TerminalUIOptions.options + SecretOptions.options

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        // Without a path: with exactly one program listening, attach to it; otherwise list them.
        let live = parsed.positionals.isEmpty ? EventStreamClient.sockets().filter { EventStreamClient.probe($0) == nil } : []
        guard let path = parsed.positionals.first ?? (live.count == 1 ? live[0] : nil) else { return list() }
        let format = parsed.eventFormat ?? .text
        if !parsed.has(follow), let problem = EventStreamClient.probe(path) {
            printToStandardError("reqtop attach: \(problem)")
            return 1
        }
        if parsed.has(HeadlessOptions.headless) || isatty(1) != 1 || isatty(0) != 1 {
            return headless(path, follow: parsed.has(follow), format: format, secrets: parsed.secrets)
        }
        return interactive(path, follow: parsed.has(follow),
                           options: InteractiveOptions(secrets: parsed.secrets, mouse: TerminalUIOptions.mouse(parsed),
                                                       journal: TerminalUIOptions.journal(parsed)))
    }

    private static func list() -> Int32 {
        let sockets = EventStreamClient.sockets()
        guard !sockets.isEmpty else {
            printToStandardError("reqtop attach: no sockets in \(EventStreamClient.defaultDirectory); give a path (the program's REQTOP_SOCKET)")
            return 1
        }
        for socket in sockets {
            print(socket + (EventStreamClient.probe(socket) == nil ? "" : "   (nobody listening: stale)"))
        }
        return 0
    }

    /// Prints the stream's events in the plain `--events jsonl` schema (re-encoded: the stream's
    /// extra fields and bodies are left out; progress at most 4 lines a second per task, as in text)
    /// or as readable lines; who publishes goes to stderr. When the program goes, its tasks that had
    /// not ended get a closing `failed` line; Ctrl-C ends with 130.
    private static func headless(_ path: String, follow: Bool, format: EventFormat, secrets: SecretPolicy) -> Int32 {
        let done = DispatchSemaphore(value: 0)
        let out = FileDescriptorSink.standardOutput
        let formatter = Protected(TextEventFormatter())
        let open = Protected<[TaskID: Double]>([:]) // unfinished tasks, and when their last progress line went out
        let emit: @Sendable (TaskEvent) -> Void = { event in
            switch format {
            case .jsonl:
                if event.name == .progress {
                    let due = open.withLock { tasks -> Bool in
                        guard event.time - (tasks[event.task] ?? -.infinity) >= 0.25 else { return false }
                        tasks[event.task] = event.time
                        return true
                    }
                    guard due else { return }
                }
                out.write(JSONLinesEncoder.line(for: event, redaction: secrets.redaction) + "\n")
            case .text:
                if let text = formatter.withLock({ $0.line(for: event) }) { out.write(text + "\n") }
            }
        }
        let client = EventStreamClient(path: path, follow: follow, onStatus: { status in
            guard case .disconnected(let reason) = status else { return }
            let now = Date().timeIntervalSince1970
            for id in open.withLock({ tasks in defer { tasks.removeAll() }; return tasks.keys.sorted() }) {
                emit(TaskEvent(task: id, time: now, kind: .failed(TaskFailure(
                    error: TransferError(code: .other, message: "unknown: the app's event stream ended before this task did"),
                    response: nil, bytes: 0, timings: nil, redirects: []))))
            }
            printToStandardError("reqtop attach: disconnected: \(Sanitizer.singleLine(reason))")
            if !follow { done.signal() }
        }, onLine: { line in
            switch line {
            case .event(let event):
                if case .created = event.kind { open.withLock { $0[event.task] = -.infinity } }
                if event.isTerminal { open.withLock { $0[event.task] = nil } }
                emit(event)
            case .hello(let hello): printToStandardError("reqtop attach: \(Sanitizer.singleLine(hello.process)) (pid \(hello.pid))")
            default: break
            }
        })
        client.start()
        let interrupted = Protected(false)
        let signals = [SIGINT, SIGTERM].map { signo -> DispatchSourceSignal in
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: DispatchQueue(label: "reqtop.attach.signals"))
            source.setEventHandler {
                interrupted.withLock { $0 = true }
                done.signal()
            }
            source.resume()
            return source
        }
        done.wait()
        signals.forEach { $0.cancel() }
        client.stop()
        return interrupted.snapshot ? 130 : 0
    }

    private static func interactive(_ path: String, follow: Bool, options: InteractiveOptions) -> Int32 {
        let manager = SessionManager(configuration: inspectorConfiguration(firstTaskID: 1_000_000_000)) // replays above every attached task
        defer { manager.invalidate() }
        var options = options
        options.attach = (path, follow)
        let outcome = runInteractive(manager: manager, title: "attached to \(path.lastPathComponent)", options: options) { _ in }
        return outcome.reason.exitCode
    }
}
