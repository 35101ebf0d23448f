import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTasks
import ReqtopSync
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// An app's event stream on a Unix socket, read back by `reqtop attach`'s client into a store.
final class EventStreamTests: EmbeddedServerTestCase {
    private var path: String!

    override func setUpWithError() throws {
        try super.setUpWithError()
        path = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-stream-\(UUID().uuidString.prefix(8)).sock").path
    }

    private func url(_ path: String) -> HTTPURL { HTTPURL(string: server.baseURL.absoluteString + path)! }

    /// Waits (polling a condition, with a deadline) for something another thread does.
    private func eventually(_ what: String, timeout: Double = 10, _ condition: () -> Bool) {
        if !ReqtopTestSupport.eventually(timeout: timeout, condition) { XCTFail("timed out waiting for \(what)") }
    }

    func testAnAttachedStoreSeesWhatTheAppsStoreSees() throws {
        let manager = SessionManager()
        let publisher = try manager.publishEvents(at: path)
        defer { publisher.stop() }
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "only this user may read the app's traffic")
        let attached = TaskStore()
        let hello = Protected<EventStreamHello?>(nil)
        let client = EventStreamClient(path: path, follow: false) { line in
            switch line {
            case .hello(let h): hello.withLock { $0 = h }
            case .event(let event): attached.apply([event])
            default: break
            }
        }
        client.start()
        defer { client.stop() }
        eventually("the hello line") { hello.snapshot != nil }
        XCTAssertEqual(hello.snapshot?.pid, Int(getpid()))
        XCTAssertEqual(hello.snapshot?.controlAllowed, false)
        eventually("the reader to be registered") { publisher.readerCount == 1 }

        let local = TaskStore()
        let subscription = local.observe(manager.bus)
        defer { subscription.stop() }
        for request in [HTTPRequest(url: url("/get?a=1")), HTTPRequest(url: url("/redirect/2")),
                        HTTPRequest(method: "POST", url: url("/post"), body: .data(Data("hi".utf8))),
                        HTTPRequest(url: url("/fault/reset?after=100"))] {
            try manager.dataTask(with: request).resume()
        }
        XCTAssertTrue(local.waitUntilSettled(timeout: 10))
        eventually("every task to end on the attached side") { attached.allRecords.count == 4 && attached.allRecords.allSatisfy { $0.state.isTerminal } }
        for (a, b) in zip(local.allRecords, attached.allRecords) {
            XCTAssertEqual(a.id, b.id)
            XCTAssertEqual(a.state, b.state)
            XCTAssertEqual(a.request, b.request)
            XCTAssertEqual(a.sentHeads, b.sentHeads)
            XCTAssertEqual(a.response?.status, b.response?.status)
            XCTAssertEqual(a.response?.headers, b.response?.headers)
            XCTAssertEqual(a.redirects.map(\.to), b.redirects.map(\.to))
            XCTAssertEqual(a.error?.code, b.error?.code)
            XCTAssertEqual(try a.body?.loadData(), try b.body?.loadData(), "\(a.url)")
        }
    }

    func testASlowReaderIsDroppedWithOverflowWhileTheAppGoesOn() throws {
        let manager = SessionManager()
        // Twice the limit (512 KB) is more than the socket's own buffer holds: the overflowed reader stays
        // connected, its last line queued, until it reads (or for 30 s).
        let publisher = try manager.publishEvents(at: path, options: EventStreamOptions(readerBufferLimit: 256 << 10))
        defer { publisher.stop() }
        // A reader that connects and never reads: its socket buffer fills, then its queue.
        let stuck = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(stuck) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(path.utf8) + [0]) }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(stuck, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        XCTAssertEqual(connected, 0)
        // Should it never overflow (a kernel with far larger socket buffers), the reads below end rather than hang.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(stuck, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        eventually("the reader to be registered") { publisher.readerCount == 1 }
        let recorder = TaskStore()
        let subscription = recorder.observe(manager.bus)
        defer { subscription.stop() }
        // Enough events (at least five lines of over 500 B a request) to overflow it several times over;
        // the app must not wait for the reader.
        let requests = 1000
        for i in 0..<requests {
            try manager.dataTask(with: HTTPRequest(url: url("/get?i=\(i)&pad=" + String(repeating: "x", count: 500)))).resume()
        }
        XCTAssertTrue(recorder.waitUntilSettled(timeout: 60), "the app finished every request")
        XCTAssertEqual(recorder.allRecords.filter { $0.state == .completed }.count, requests)
        // Once the publisher has been handed every event, what it encoded is counted (below).
        publisher.flush()
        let encoded = publisher.encodedLineCount
        // What the stuck reader gets when it finally reads: lines, then the overflow line, then the end.
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(stuck, &buffer, buffer.count)
            if n <= 0 { break }
            text += String(decoding: buffer[..<n], as: UTF8.self)
        }
        XCTAssertTrue(text.hasPrefix(#"{"control":"refused","event":"hello""#), String(text.prefix(100)))
        XCTAssertTrue(text.hasSuffix(#"{"event":"overflow","reason":"the reader fell too far behind; this stream ends here"}"# + "\n"),
                      String(text.suffix(200)))
        // Once dropped, the stuck reader costs nothing more: encoded were the lines it got, those of the slice
        // of 64 events in which it overflowed, and the progress lines of the slice in which it fell behind
        // (skipped for it) — not the thousands of lines after it.
        let received = text.utf8.filter { $0 == 0x0A }.count
        XCTAssertLessThan(received, requests * 5 / 2, "it overflowed before the end")
        XCTAssertLessThan(encoded, received + 2 * 64, "lines encoded for a reader that was dropped")
        eventually("the dropped reader to be gone") { publisher.readerCount == 0 }
    }

    func testCommandsAreRefusedUnlessTheAppAllowsThemAndThenCancel() throws {
        for allowed in [false, true] {
            let manager = SessionManager()
            let publisher = try manager.publishEvents(at: path, options: EventStreamOptions(allowRemoteControl: allowed))
            let replies = Protected<[String]>([])
            let store = TaskStore()
            let client = EventStreamClient(path: path, follow: false) { line in
                switch line {
                case .event(let event): store.apply([event])
                case .reply(_, let outcome): replies.withLock { $0.append(outcome) }
                default: break
                }
            }
            client.start()
            eventually("the client to connect") { if case .connected = client.status { return true } else { return false } }
            let task = manager.dataTask(with: HTTPRequest(url: url("/fault/drip-forever")))
            try task.resume()
            eventually("the task to run") { store.record(task.id)?.response != nil }
            XCTAssertTrue(client.send("cancel", task: task.id, idOffset: 0))
            eventually("a reply") { !replies.snapshot.isEmpty }
            if allowed {
                XCTAssertEqual(replies.snapshot, ["done"])
                eventually("the cancel to reach the attached store") { store.record(task.id)?.state == .cancelled }
            } else {
                XCTAssertTrue(replies.snapshot[0].hasPrefix("refused: the app did not allow remote control"), replies.snapshot[0])
                XCTAssertEqual(task.state, .running)
                try task.cancel()
            }
            client.stop()
            publisher.stop()
            eventually("the socket file to be removed") { !FileManager.default.fileExists(atPath: path) }
        }
    }

    func testFollowReconnectsWhenTheAppComesBackAndItsTaskIdsDoNotCollide() throws {
        let store = TaskStore()
        let statuses = Protected<[String]>([])
        let client = EventStreamClient(path: path, follow: true, onStatus: { status in
            switch status {
            case .connected(let hello): statuses.withLock { $0.append("connected \(hello.pid)") }
            case .disconnected: statuses.withLock { $0.append("disconnected") }
            case .connecting: break
            }
        }) { line in if case .event(let event) = line { store.apply([event]) } }
        client.start() // before the app: it waits for the socket
        defer { client.stop() }
        for run in 1...2 {
            let manager = SessionManager()
            let publisher = try manager.publishEvents(at: path)
            eventually("connection \(run)") { statuses.snapshot.filter { $0.hasPrefix("connected") }.count == run }
            try manager.dataTask(with: HTTPRequest(url: url("/get?run=\(run)"))).resume()
            eventually("run \(run)'s task") { store.allRecords.filter { $0.state == .completed }.count == run }
            publisher.stop()
            eventually("disconnection \(run)") { statuses.snapshot.filter { $0 == "disconnected" }.count == run }
        }
        // Both apps numbered their task 1; the second connection's ids start past the first's.
        XCTAssertEqual(store.allRecords.map(\.id.rawValue), [1, 1 + EventStreamClient.idSpan])
        XCTAssertEqual(store.allRecords.map(\.url.requestTarget), ["/get?run=1", "/get?run=2"])
    }

    /// An app stopping just as a following reader connects closes that connection before its hello:
    /// that is no connection of its own (no disconnect reported, no id span used up).
    func testAStreamEndingBeforeItsHelloIsNotAConnection() throws {
        // Stands in for an app that is stopping: it takes one connection and closes it unanswered.
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in path.utf8CString.withUnsafeBytes { raw.copyMemory(from: $0) } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 4), 0)
        let statuses = Protected<[String]>([])
        let store = TaskStore()
        let client = EventStreamClient(path: path, follow: true, onStatus: { status in
            switch status {
            case .connected: statuses.withLock { $0.append("connected") }
            case .disconnected: statuses.withLock { $0.append("disconnected") }
            case .connecting: break
            }
        }) { line in if case .event(let event) = line { store.apply([event]) } }
        client.start()
        defer { client.stop() }
        let accepted = accept(listener, nil, nil)
        XCTAssertGreaterThanOrEqual(accepted, 0)
        close(accepted)
        close(listener)
        unlink(path)

        let manager = SessionManager()
        let publisher = try manager.publishEvents(at: path)
        defer { publisher.stop() }
        eventually("the connection to the real app") { statuses.snapshot.contains("connected") }
        try manager.dataTask(with: HTTPRequest(url: url("/get"))).resume()
        eventually("its task") { store.allRecords.contains { $0.state == .completed } }
        XCTAssertEqual(statuses.snapshot, ["connected"], "the unanswered connection reported nothing")
        XCTAssertEqual(store.allRecords.map(\.id.rawValue), [1], "and used no id span")
    }

    func testALiveSocketIsNotTakenOverAndAStaleOneIs() throws {
        let manager = SessionManager()
        let first = try manager.publishEvents(at: path)
        XCTAssertThrowsError(try SessionManager().publishEvents(at: path), "another process publishes there")
        first.stop()
        eventually("the first publisher to close") { !FileManager.default.fileExists(atPath: path) }
        // A socket file nobody listens on (a process killed with -9) is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(path.utf8) + [0]) }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        let second = try SessionManager().publishEvents(at: path)
        second.stop()
    }
}
