#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ReqtopTestServer

/// `reqtop serve [--host 127.0.0.1] [--port 0]`: runs the embedded test server until SIGINT or SIGTERM.
///
/// Prints `listening on http://HOST:PORT` as its first line. Exit codes: 0 after a clean stop,
/// 2 for an unknown flag, a bad port or a port that cannot be bound (one line on stderr naming it).
enum ServeCommand: Command {
    static let name = "serve"
    static let arguments = "[--host 127.0.0.1] [--port 0]"
    static let briefArguments = "[options]"
    static let abstract = "run the embedded test server"
    static let discussion = """
        Runs the embedded HTTP/1.1 test server: httpbin-like endpoints and faults under
        /fault/ (GET / lists them). Prints "listening on http://HOST:PORT" first; Ctrl-C stops it.
        """
    static let host = CommandOption.value("host", "ADDRESS", help: "IPv4 address to listen on (default 127.0.0.1)")
    static let port = CommandOption.value("port", "N", help: "port to listen on; 0 picks a free one (default 0)")
    static let options = [host, port]

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        try parsed.expectPositionals(atMost: 0)
        let portText = parsed.value(port) ?? "0"
        guard let number = UInt16(portText) else { throw UsageError(TestServerError.invalidPort(portText).description) }
        return serve(host: parsed.value(host) ?? "127.0.0.1", port: number)
    }

    /// One line, naming what is wrong (scripts read it).
    static func usageFailure(_ error: UsageError) -> Int32 {
        printToStandardError("reqtop serve: \(error.message) (see reqtop serve --help)")
        return 2
    }
}

private func serve(host: String, port: UInt16) -> Int32 {
    // Block the stop signals before any server thread exists, so every thread inherits the mask
    // and the signals wait for `sigwait` below instead of killing the process.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &signals, nil)

    let server: TestServer
    do {
        server = try TestServer(host: host, port: port)
    } catch {
        printToStandardError("reqtop serve: \(error.description)")
        return 2
    }
    server.start()
    print("listening on \(server.baseURL.absoluteString)")
    fflush(nil)  // all streams: Glibc's `stdout` global is not concurrency-safe in Swift 6

    var received: Int32 = 0
    sigwait(&signals, &received)
    server.stop()
    return 0
}
