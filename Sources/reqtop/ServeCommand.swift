#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ReqtopTestServer

/// `reqtop serve [--host 127.0.0.1] [--port 0]`: runs the embedded test server until SIGINT or SIGTERM.
///
/// Prints `listening on http://HOST:PORT` as its first line. Exit codes: 0 after a clean stop,
/// 2 for an unknown flag, a bad port or a port that cannot be bound (one line on stderr naming it).
func runServe(_ arguments: [String]) -> Int32 {
    let host: String
    let port: UInt16
    do throws(UsageError) {
        let parsed = try CommandLineParser(options: [.value("host"), .value("port")]).parse(arguments)
        if parsed.has("help") {
            print(HelpText.serve)
            return 0
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        host = parsed.value("host") ?? "127.0.0.1"
        let portText = parsed.value("port") ?? "0"
        guard let value = UInt16(portText) else { throw UsageError(TestServerError.invalidPort(portText).description) }
        port = value
    } catch {
        // One line, naming what is wrong (scripts read it).
        printToStandardError("reqtop serve: \(error.message) (see reqtop serve --help)")
        return 2
    }

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
