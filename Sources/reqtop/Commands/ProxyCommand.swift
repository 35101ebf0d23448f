import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopProxy
import ReqtopTasks
import ReqtopSync

/// `reqtop proxy [--port 8888] [--intercept]`: any program's HTTP requests, live, through a forward proxy.
enum ProxyCommand: Command {
    static let name = "proxy"
    static let arguments = "[--port 8888] [--host 127.0.0.1] [--proxy-auth USER:PASS] [--allow-remote] [--intercept] [--via] [--insecure] [--cacert FILE] [--headless] [--events text|jsonl] [--har PATH] [--no-mouse] [--no-journal] [--include-secrets]"
    static let briefArguments = "[--port 8888] [--intercept] [options]"
    static let abstract = "an HTTP forward proxy: watch any program's requests"
    static let discussion = """
        Listens as an HTTP forward proxy (HTTP/1.1; HTTP/2 from programs that choose h2 inside
        --intercept, or speak it in clear by prior knowledge); every request or stream through it
        is a task in the table (the same detail, timeline, filters, diff and HAR save), its
        response streamed back to the program as it arrives. Point a program at it with
          HTTP_PROXY=http://127.0.0.1:8888 HTTPS_PROXY=http://127.0.0.1:8888 program
        HTTPS goes through CONNECT tunnels, shown as tunnel tasks (host, bytes each way). With
        --intercept, reqtop decrypts them with certificates from its own local CA (made once,
        in $XDG_DATA_HOME/reqtop/; the program must trust it — the path is printed) and each
        HTTPS request is a task too. Requests are forwarded as received (hop-by-hop fields
        removed, RFC 9110); s suspends a transfer (the program waits) and s again resumes it,
        x cancels it. It listens on loopback unless --host says otherwise; another address needs
        --proxy-auth (clients send Proxy-Authorization: Basic, or get 407) or --allow-remote.
        """
    static let footer: String? = "Exit codes: 0 after Ctrl-C or q, 1 a HAR or CA file could not be written, 2 usage error or the port is taken."
    static let port = CommandOption.value("port", "N", help: "port to listen on; 0 picks a free one (default 8888)")
    static let host = CommandOption.value("host", "ADDRESS", help: "address to listen on (default 127.0.0.1)")
    static let intercept = CommandOption.flag("intercept", help: "decrypt HTTPS with a local CA (printed: trust it in the program)")
    static let via = CommandOption.flag("via", help: "add Via: 1.1 reqtop to forwarded requests and responses")
    static let proxyAuth = CommandOption.value("proxy-auth", "USER:PASS", help: "clients must send these Basic credentials (else 407)")
    static let allowRemote = CommandOption.flag("allow-remote", help: "listen on a non-loopback --host without --proxy-auth")
    static let options = [port, host, proxyAuth, allowRemote, intercept, via] + TLSOptions.options + HeadlessOptions.options + [RunCommand.har]
        + TerminalUIOptions.options + SecretOptions.options

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        try parsed.expectPositionals(atMost: 0)
        var configuration = ProxyConfiguration()
        if let text = parsed.value(port) {
            guard let number = Int(text), (0...65535).contains(number) else { throw UsageError("--port must be 0…65535, got '\(text)'") }
            configuration.port = number
        }
        if let address = parsed.value(host) { configuration.host = address }
        if let text = parsed.value(proxyAuth) {
            guard let credentials = ProxyCredentials(text) else { throw UsageError("--proxy-auth must be USER:PASS, got '\(text)'") }
            configuration.credentials = credentials
        }
        configuration.allowsRemoteClients = parsed.has(allowRemote)
        guard configuration.credentials != nil || configuration.allowsRemoteClients || ProxyCredentials.isLoopback(configuration.host) else {
            throw UsageError("--host \(configuration.host) is not a loopback address: anyone who can reach it could send requests "
                             + "from this machine. Add --proxy-auth USER:PASS, or --allow-remote to accept anyone")
        }
        if parsed.has(via) { configuration.via = "reqtop" }
        let format = parsed.eventFormat ?? .text
        var session = ProxyConfiguration.forwardingSession(from: inspectorConfiguration())
        session.insecure = parsed.has(TLSOptions.insecure)
        session.caFile = parsed.value(TLSOptions.caFile)
        if parsed.has(intercept) {
            do {
                let (authority, created) = try CertificateAuthority.loadOrCreate(in: CertificateAuthority.defaultDirectory)
                configuration.interception = authority
                printToStandardError((created ? "reqtop proxy: created a local CA for --intercept\n" : "") + authority.trustInstructions)
            } catch {
                printToStandardError("reqtop proxy: --intercept: \(error)")
                return 1
            }
        }
        raiseDescriptorLimit()
        let manager = SessionManager(configuration: session)
        defer { manager.invalidate() }
        let proxy: ForwardProxy
        do {
            proxy = try ForwardProxy(manager: manager, configuration: configuration)
        } catch {
            printToStandardError("reqtop proxy: \(error)")
            return 2
        }
        defer { proxy.stop() }
        let address = "http://\(configuration.host.containsBytes(":") ? "[\(configuration.host)]" : configuration.host):\(proxy.port)"
        let listening = "listening on \(address) — HTTP_PROXY=\(address) HTTPS_PROXY=\(address) program"
        if parsed.has(HeadlessOptions.headless) || isatty(1) != 1 || isatty(0) != 1 {
            return headless(manager, proxy: proxy, listening: listening, format: format, harPath: parsed.value(RunCommand.har),
                            secrets: parsed.secrets)
        }
        var options = InteractiveOptions(secrets: parsed.secrets, mouse: TerminalUIOptions.mouse(parsed), journal: TerminalUIOptions.journal(parsed))
        // What was printed before the screen took over is out of sight: the CA to trust goes on the bottom line.
        options.notice = configuration.interception.map { "--intercept: trust \($0.certificatePath) (e.g. curl --cacert); " + listening }
            ?? listening
        // Quitting stops the proxy first: no new client while the unfinished tasks are cancelled, and
        // its tunnels end (and are recorded as ended) before the store stops listening.
        let outcome = runInteractive(manager: manager, title: "proxy \(address)", options: options, begin: { _ in },
                                     stop: { proxy.stop() })
        proxy.stop()
        if let path = parsed.value(RunCommand.har) {
            do {
                try SessionExport.writeHAR(outcome.store.storedRecords(), to: path, secrets: parsed.secrets)
            } catch {
                printToStandardError("reqtop proxy: cannot write the HAR file \(path): \(error.readableDescription)")
                return 1
            }
        }
        return 0
    }

    /// Each client can hold two descriptors (a tunnel's host): the soft limit goes up to the hard one.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, 65_536)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Prints each proxied task's events until SIGINT or SIGTERM, then writes `--har`.
    private static func headless(_ manager: SessionManager, proxy: ForwardProxy, listening: String, format: EventFormat,
                                 harPath: String?, secrets: SecretPolicy) -> Int32 {
        let recorder = harPath.map { _ in HARRecorder(bus: manager.bus, secrets: secrets) }
        recorder?.start()
        let text = format == .text ? TextEventPrinter(bus: manager.bus, sink: FileDescriptorSink.standardOutput) : nil
        let json = format == .jsonl ? JSONLinesPrinter(bus: manager.bus, sink: FileDescriptorSink.standardOutput, secrets: secrets) : nil
        text?.start()
        json?.start()
        let counter = Protected((requests: 0, tunnels: 0))
        let counting = manager.bus.subscribe { event in
            guard case .created(let description) = event.kind else { return }
            counter.withLock { description.method == "CONNECT" && description.name == "tunnel" ? ($0.tunnels += 1) : ($0.requests += 1) }
        }
        defer { counting.cancel() }
        printToStandardError("reqtop proxy: \(listening)")
        let stop = StopSignalWaiter()
        stop.wait { _ in stop.finish() } // until the first SIGINT or SIGTERM
        proxy.stop() // closes every client connection, which cancels its task
        let deadline = Date().addingTimeInterval(3)
        while manager.registeredTaskCount > 0, Date() < deadline { usleep(10_000) }
        text?.stop()
        json?.stop()
        printToStandardError("reqtop proxy: stopped after \(counter.snapshot.requests) requests and \(counter.snapshot.tunnels) tunnels")
        if let recorder, let harPath {
            recorder.stop()
            do {
                try recorder.write(to: URL(fileURLWithPath: harPath))
                printToStandardError("reqtop proxy: wrote \(harPath)")
            } catch {
                printToStandardError("reqtop proxy: cannot write the HAR file \(harPath): \(error.readableDescription)")
                return 1
            }
        }
        return 0
    }
}
