import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopSync

/// An app that publishes its event stream (`publishEvents`): its request rate with no reader, with a
/// reader that keeps up, and with a reader that never reads — the app must not slow down for it.
struct AttachBench {
    let settings: BenchSettings

    enum Reader: String, CaseIterable {
        case none = "no reader"
        case reading = "a reader that keeps up"
        case stalled = "a stalled reader"
    }

    func run() throws -> [BenchRow] {
        let url = URL(string: settings.nginxURL + "/files/100b.bin")!
        let count = settings.quick ? 300 : 20_000
        var spreads: [Reader: Spread] = [:]
        for reader in Reader.allCases {
            spreads[reader] = Spread(try (0..<max(1, settings.replayRuns)).map { _ in try measure(reader, url: url, count: count) })
        }
        let none = spreads[.none]!.median, stalled = spreads[.stalled]!.median, reading = spreads[.reading]!.median
        func rate(_ reader: Reader) -> String { Figure.rate(spreads[reader]!) }
        log("attach: app \(Figure.rate(none)) with no reader, \(Figure.rate(reading)) with one reading, \(Figure.rate(stalled)) with one stalled")
        return [BenchRow("attach: app req/s (c=8) with a stalled reader vs none", reqtop: rate(.stalled),
                         peers: "no reader \(rate(.none)) · reading \(rate(.reading))", ratio: stalled / none,
                         target: "≥ 0.9× no reader", met: stalled / none >= 0.9,
                         values: ["no_reader_req_per_s": none, "reading_req_per_s": reading, "stalled_req_per_s": stalled])]
    }

    private func measure(_ reader: Reader, url: URL, count: Int) throws -> Double {
        var configuration = SessionConfiguration()
        configuration.maxConcurrentTasks = 8
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidate() }
        let path = NSTemporaryDirectory() + "reqtop-bench-attach-\(getpid()).sock"
        let publisher = try manager.publishEvents(at: path)
        defer { publisher.stop() }
        var client: Int32 = -1
        let drain = DispatchGroup()
        if reader != .none {
            client = try connect(path)
            if reader == .reading {
                DispatchQueue.global().async(group: drain) { [client] in
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    while read(client, &buffer, buffer.count) > 0 {}
                }
            }
        }
        defer {
            if client >= 0 { shutdown(client, Int32(SHUT_RDWR)) }
            drain.wait()
            if client >= 0 { close(client) }
        }
        let done = DispatchSemaphore(value: 0)
        let ended = Protected(0)
        let subscription = manager.bus.subscribeBatches { events in
            let n = events.filter(\.isTerminal).count
            if n > 0, ended.withLock({ $0 += n; return $0 }) == count { done.signal() }
        }
        defer { subscription.cancel() }
        let request = HTTPRequest(url: HTTPURL(string: url.absoluteString)!)
        let start = Clock.now()
        for _ in 0..<count { try? manager.dataTask(with: request).resume() }
        done.wait()
        return Double(count) / (Clock.now() - start)
    }

    private func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            path.utf8CString.withUnsafeBytes { raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(raw.count - 1))) }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw BenchProcess.Failure(description: "cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
