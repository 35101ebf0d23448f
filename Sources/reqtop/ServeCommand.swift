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
    let options: ServeOptions
    switch ServeOptions.parse(arguments) {
    case .help:
        print(ServeOptions.usage)
        return 0
    case .failure(let message):
        writeToStandardError("reqtop serve: \(message) (see reqtop serve --help)\n")
        return 2
    case .options(let parsed):
        options = parsed
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
        server = try TestServer(host: options.host, port: options.port)
    } catch {
        writeToStandardError("reqtop serve: \(error.description)\n")
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

/// The parsed command line of `reqtop serve`.
struct ServeOptions {
    var host = "127.0.0.1"
    var port: UInt16 = 0

    enum Outcome {
        case options(ServeOptions)
        case help
        case failure(String)
    }

    static let usage = """
    Usage: reqtop serve [--host 127.0.0.1] [--port 0]

    Runs the embedded HTTP/1.1 test server: httpbin-like endpoints and faults under
    /fault/ (GET / lists them). Prints "listening on http://HOST:PORT" first; Ctrl-C stops it.

    Options:
      --host ADDRESS          IPv4 address to listen on (default 127.0.0.1)
      --port N                port to listen on; 0 picks a free one (default 0)
      -h, --help              show this help
    """

    static func parse(_ arguments: [String]) -> Outcome {
        var options = ServeOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "-h", "--help":
                return .help
            case "--host", "--port":
                guard let value = inlineValue ?? remaining.popFirst() else {
                    return .failure("\(name) needs a value")
                }
                if name == "--host" {
                    options.host = value
                } else {
                    guard let port = UInt16(value) else {
                        return .failure(TestServerError.invalidPort(value).description)
                    }
                    options.port = port
                }
            default:
                return .failure("unknown argument \(argument)")
            }
        }
        return .options(options)
    }
}

private func writeToStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
