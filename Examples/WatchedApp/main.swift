// reqtop-example-app: a program that uses reqtop's networking library and lets reqtop watch it.
//
//     swift run reqtop-example-app            # then, in another terminal:
//     reqtop attach                           # lists the socket; reqtop attach PATH shows the app live
//
// It serves itself (the embedded test server on loopback, so it needs no network) and runs a
// realistic loop: a login whose token the next calls use, a chain of calls, a download with
// progress, a slow request, and a failure — again and again until Ctrl-C (or --rounds N).
import Foundation
import ReqtopNetworking
import ReqtopTestServer

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        Usage: reqtop-example-app [--socket PATH] [--rounds N]
        Runs a loop of requests against its own loopback server and publishes its events for
        `reqtop attach` (default socket: $XDG_RUNTIME_DIR/reqtop/reqtop-example-app-PID.sock,
        else /tmp/reqtop-UID/…). --rounds N stops after N rounds (default: until Ctrl-C).
        """)
    exit(0)
}
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else { return nil }
    return arguments[arguments.index(after: index)]
}
let rounds = option("--rounds").flatMap(Int.init) ?? Int.max
let socketPath = option("--socket") ?? EventPublisher.defaultPath(for: "reqtop-example-app")

let server = try TestServer()
server.start()
let base = server.baseURL.absoluteString
let manager = SessionManager()

// The one line that makes the app watchable (here with remote control allowed: reqtop may
// suspend, resume and cancel its requests).
let publisher = try manager.publishEvents(at: socketPath, options: EventStreamOptions(allowRemoteControl: true))
// Ctrl-C or SIGTERM: stop publishing (the socket file goes) and exit.
nonisolated(unsafe) var signalSources: [any DispatchSourceSignal] = []
for signo in [SIGINT, SIGTERM] {
    signal(signo, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signo, queue: DispatchQueue(label: "signals"))
    source.setEventHandler {
        publisher.stop()
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}
FileHandle.standardOutput.write(Data("reqtop-example-app: publishing on \(socketPath) — watch with: reqtop attach \(socketPath)\n".utf8))

func get(_ path: String, headers: [HTTPHeader] = [], name: String) async -> TaskResponse<Data> {
    await manager.data(for: HTTPRequest(method: "GET", url: HTTPURL(string: base + path)!, headers: headers), options: TaskOptions(name: name))
}

var round = 0
while round < rounds {
    round += 1
    // Log in: the echo of a POST stands in for a token endpoint.
    let login = await manager.data(for: HTTPRequest(method: "POST", url: HTTPURL(string: base + "/post")!,
                                                    headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                                    body: .data(Data(#"{"user":"demo","password":"secret"}"#.utf8))),
                                   options: TaskOptions(name: "login"))
    let token = "round-\(round)-\(login.value?.count ?? 0)"
    let auth = [HTTPHeader(name: "Authorization", value: "Bearer \(token)")]
    // Chained calls with the token.
    _ = await get("/get?page=1", headers: auth, name: "list")
    _ = await get("/redirect/2", headers: auth, name: "follow")
    _ = await get("/json", headers: auth, name: "details")
    // A download slow enough to watch (and suspend from reqtop).
    _ = await get("/drip?numbytes=4000&duration=3", name: "download")
    // A failure: the server resets the connection mid-body.
    _ = await get("/fault/reset?after=512", name: "broken")
    try? await Task.sleep(nanoseconds: 500_000_000)
}
publisher.stop()
server.stop()
