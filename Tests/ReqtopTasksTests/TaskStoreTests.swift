import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import XCTest
import ReqtopRequestLists
import ReqtopTasks

final class TaskStoreTests: XCTestCase {
    func testRowsAppearUpdateAndFinishAsEventsArrive() {
        let store = TaskStore()
        store.apply([CannedEvents.created(1, "GET", "http://api.test/users?page=2")])
        XCTAssertEqual(store.record(TaskID(rawValue: 1))?.state, .suspended)
        store.apply([CannedEvents.simple(1, .resumed, at: 101), CannedEvents.simple(1, .response(CannedEvents.head(200, "http://api.test/users")), at: 101.1),
                     CannedEvents.simple(1, .progress(TransferProgress(direction: .download, completed: 50, total: 200)), at: 101.2)])
        let running = store.record(TaskID(rawValue: 1))
        XCTAssertEqual(running?.state, .running)
        XCTAssertEqual(running?.status, 200)
        XCTAssertEqual(running?.progressFraction, 0.25)
        XCTAssertEqual(running?.pathAndQuery, "/users?page=2")
        store.apply([CannedEvents.completed(1, status: 200, url: "http://api.test/users", bytes: 200, totalMs: 250, at: 101.3)])
        let done = store.record(TaskID(rawValue: 1))
        XCTAssertEqual(done?.state, .completed)
        XCTAssertEqual(done?.downloaded, 200)
        XCTAssertEqual(done?.duration(now: 0) ?? 0, 0.3, accuracy: 0.001)
        XCTAssertEqual(store.aggregates(now: 101.5).count(.completed), 1)
        XCTAssertEqual(store.aggregates(now: 101.5).count(.running), 0)
    }

    func testTimelineKeepsEveryLifecycleEventWithPayloadAndFoldsProgress() {
        let store = TaskStore()
        store.apply(CannedEvents.lifecycle(4, "GET", "http://h.test/x", status: 200, bytes: 2048, totalMs: 40))
        let record = store.record(TaskID(rawValue: 4))!
        let timeline = record.timeline
        XCTAssertEqual(timeline.map(\.event), [.created, .resumed, .request, .response, .progress, .completed])
        XCTAssertEqual(timeline[2].payload(in: record), ["GET /x HTTP/1.1", "Host: h.test", "User-Agent: reqtop/0.1.0", "Accept: */*"],
                       "the head as sent")
        XCTAssertEqual(timeline[3].payload(in: record).first, "HTTP/1.1 200 OK")
        XCTAssertTrue(timeline[3].payload(in: record).contains("Content-Type: application/json"))
        XCTAssertEqual(timeline[4].payload(in: record).first, "download 2.0 KB of 2.0 KB", "the latest progress wins")
        XCTAssertTrue(timeline[5].payload(in: record).first?.hasPrefix("status 200, 2.0 KB, 40 ms") ?? false, "\(timeline[5].payload(in: record))")
    }

    func testFiltersCombineWithAndAndNegation() throws {
        let store = TaskStore()
        store.apply(CannedEvents.lifecycle(1, "GET", "http://api.test/a", status: 200, bytes: 10, totalMs: 10))
        store.apply(CannedEvents.lifecycle(2, "POST", "http://api.test/b", status: 404, bytes: 10, totalMs: 10))
        store.apply(CannedEvents.lifecycle(3, "GET", "http://cdn.test/c", status: 503, bytes: 10, totalMs: 10))
        store.apply([CannedEvents.created(4, "GET", "http://api.test/d"), CannedEvents.simple(4, .resumed, at: 101),
                     CannedEvents.simple(4, .failed(TaskFailure(error: TransferError(code: .cannotConnect, message: "refused"),
                                                          response: nil, bytes: 0, timings: nil, redirects: [])), at: 102)])
        func ids(_ expression: String) throws -> [Int] {
            let listing = store.listing(filter: try TaskFilter(parsing: expression), order: .byID)
            return store.records(listing, rows: 0..<listing.count).map(\.id.rawValue)
        }
        XCTAssertEqual(try ids(""), [1, 2, 3, 4])
        XCTAssertEqual(try ids("status:4xx"), [2])
        XCTAssertEqual(try ids("status:503"), [3])
        XCTAssertEqual(try ids("method:post"), [2])
        XCTAssertEqual(try ids("state:failed"), [4])
        XCTAssertEqual(try ids("host:api !method:POST"), [1, 4])
        XCTAssertEqual(try ids("/c"), [3])
        XCTAssertEqual(try ids("!state:completed"), [4])
        XCTAssertThrowsError(try TaskFilter(parsing: "state:sleeping"))
        XCTAssertThrowsError(try TaskFilter(parsing: "status:abc"))
    }

    func testSortOrdersByEveryColumnBothWaysWithTiesInCreationOrder() {
        let store = TaskStore()
        store.apply(CannedEvents.lifecycle(1, "GET", "http://b.test/a", status: 200, bytes: 300, totalMs: 10))
        store.apply(CannedEvents.lifecycle(2, "POST", "http://a.test/c", status: 404, bytes: 100, totalMs: 10))
        store.apply(CannedEvents.lifecycle(3, "GET", "http://c.test/b", status: 500, bytes: 200, totalMs: 10))
        store.apply(CannedEvents.lifecycle(4, "DELETE", "http://a.test/b", status: 200, bytes: 200, totalMs: 10))
        func ids(_ key: TaskSort, descending: Bool? = nil) -> [Int] {
            let listing = store.listing(filter: .all, order: TaskOrder(key, descending: descending))
            return store.records(listing, rows: 0..<listing.count).map(\.id.rawValue)
        }
        XCTAssertEqual(ids(.size), [1, 3, 4, 2], "largest first; 3 and 4 tie and keep creation order")
        XCTAssertEqual(ids(.size, descending: false), [2, 3, 4, 1])
        XCTAssertEqual(ids(.status), [3, 2, 1, 4])
        XCTAssertEqual(ids(.id), [1, 2, 3, 4])
        XCTAssertEqual(ids(.id, descending: true), [4, 3, 2, 1])
        XCTAssertEqual(ids(.method), [4, 1, 3, 2])
        XCTAssertEqual(ids(.host), [2, 4, 1, 3])
        XCTAssertEqual(ids(.path), [1, 3, 4, 2])
        XCTAssertEqual(ids(.path, descending: true), [2, 3, 4, 1])
    }

    /// Host keys are the host in lower case with the port as a number; path keys are the path ("/"
    /// when there is none) and the query — read from the URL's bytes, checked here against the
    /// same keys made from `HTTPURL`'s string accessors.
    func testHostAndPathSortKeysMatchTheURLsParts() {
        let urls = ["http://B.test:8080/x", "http://a.test:9/x", "http://a.test:10/", "http://d.test?z=1", "http://d.test",
                    "http://d.test/?a", "http://[::1]:81/p?q#frag", "http://user@C.test/%41?b=%20", "https://a.test/x/y?",
                    "http://A.TEST/X", "http://a.test:010/", "http://é.test/ü"]
        let store = TaskStore()
        for (index, url) in urls.enumerated() {
            store.apply(CannedEvents.lifecycle(index + 1, "GET", url, status: 200, bytes: 1, totalMs: 1))
        }
        func ids(_ key: TaskSort, descending: Bool) -> [Int] {
            let listing = store.listing(filter: .all, order: TaskOrder(key, descending: descending))
            return store.records(listing, rows: 0..<listing.count).map(\.id.rawValue)
        }
        func expected(_ key: (HTTPURL) -> String, descending: Bool) -> [Int] {
            let keyed = urls.enumerated().map { (id: $0.offset + 1, key: Array(key(HTTPURL(string: $0.element)!).utf8)) }
            return keyed.sorted { a, b in
                a.key == b.key ? a.id < b.id : (descending ? a.key.lexicographicallyPrecedes(b.key) == false : a.key.lexicographicallyPrecedes(b.key))
            }.map(\.id)
        }
        let host: (HTTPURL) -> String = { url in url.host.lowercased() + (url.port.map { ":\($0)" } ?? "") }
        let path: (HTTPURL) -> String = { url in (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "") }
        for descending in [false, true] {
            XCTAssertEqual(ids(.host, descending: descending), expected(host, descending: descending), "host, descending \(descending)")
            XCTAssertEqual(ids(.path, descending: descending), expected(path, descending: descending), "path, descending \(descending)")
        }
    }

    func testTasksWithoutANameSortAfterNamedOnesEitherWay() {
        let store = TaskStore()
        store.apply([CannedEvents.created(1, "GET", "http://t/1")])
        store.apply([TaskEvent(task: TaskID(rawValue: 2), time: 100, kind: .created(TaskDescription(kind: .data, name: "beta", request: HTTPRequest(url: HTTPURL(string: "http://t/2")!))))])
        store.apply([TaskEvent(task: TaskID(rawValue: 3), time: 100, kind: .created(TaskDescription(kind: .data, name: "Alpha", request: HTTPRequest(url: HTTPURL(string: "http://t/3")!))))])
        for descending in [false, true] {
            let listing = store.listing(filter: .all, order: TaskOrder(.name, descending: descending))
            XCTAssertEqual(store.records(listing, rows: 0..<3).map(\.id.rawValue), descending ? [2, 3, 1] : [3, 2, 1])
        }
    }

    func testAggregatesReportLatencyPercentilesAndRates() {
        let store = TaskStore()
        for i in 1...100 {
            store.apply(CannedEvents.lifecycle(i, "GET", "http://t/\(i)", status: 200, bytes: 1000, totalMs: Double(i)))
        }
        let aggregates = store.aggregates(now: 100.5)
        XCTAssertEqual(aggregates.count(.completed), 100)
        XCTAssertEqual(aggregates.p50 ?? 0, 50, accuracy: 2.5)
        XCTAssertEqual(aggregates.p95 ?? 0, 95, accuracy: 5)
        XCTAssertEqual(aggregates.max, 100)
        XCTAssertEqual(aggregates.bytesReceived, 100_000)
        XCTAssertEqual(aggregates.requestsPerSecond, 100.0 / 5, "100 completions within the 5 s window")
    }

    func testMarksToggle() {
        let store = TaskStore()
        store.apply([CannedEvents.created(1, "GET", "http://t/")])
        store.toggleMark(TaskID(rawValue: 1))
        XCTAssertTrue(store.marks.contains(TaskID(rawValue: 1)))
        store.toggleMark(TaskID(rawValue: 1))
        XCTAssertFalse(store.marks.contains(TaskID(rawValue: 1)))
    }

    func testEventLogKeepsTheNewestLinesInOrder() {
        let store = TaskStore()
        for i in 1...(TaskStore.logCapacity + 10) { store.apply([CannedEvents.created(i, "GET", "http://t/\(i)")]) }
        let lines = store.logLines(limit: 3)
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[2].hasPrefix("#\(TaskStore.logCapacity + 10) created"), lines[2])
        XCTAssertTrue(lines[0].hasPrefix("#\(TaskStore.logCapacity + 8) created"), lines[0])
    }
}

final class TaskStoreMemoryTests: XCTestCase {
    func testOldestBodiesAreReleasedPastTheBudget() {
        let store = TaskStore(bodyBudget: 25) // each test body is 11 bytes
        for i in 1...3 { store.apply(CannedEvents.lifecycle(i, "GET", "http://t/\(i)", status: 200, bytes: 11, totalMs: 1)) }
        XCTAssertNil(store.record(TaskID(rawValue: 1))?.body)
        XCTAssertEqual(store.record(TaskID(rawValue: 1))?.bodyReleased, true)
        XCTAssertEqual(store.record(TaskID(rawValue: 2))?.body?.count, 11)
        XCTAssertEqual(store.record(TaskID(rawValue: 3))?.body?.count, 11)
    }

    /// A recorder takes ended tasks from the front as they end; a task still running holds back
    /// the ones after it, which stay readable by id, and the body budget follows what is left.
    func testRemovingTheEndedPrefixKeepsTheRestAddressable() {
        let store = TaskStore(bodyBudget: 25) // each test body is 11 bytes: two fit
        store.apply(CannedEvents.lifecycle(1, "GET", "http://t/1", status: 200, bytes: 11, totalMs: 1))
        store.apply([CannedEvents.created(2, "GET", "http://t/2"), CannedEvents.simple(2, .resumed, at: 100.01)])
        store.apply(CannedEvents.lifecycle(3, "GET", "http://t/3", status: 200, bytes: 11, totalMs: 1))
        XCTAssertEqual(store.removeEndedPrefix().map(\.id.rawValue), [1])
        XCTAssertEqual(store.removeEndedPrefix().map(\.id.rawValue), [], "task 2 still runs: 3 waits behind it")
        XCTAssertEqual(store.record(TaskID(rawValue: 3))?.body?.count, 11)
        XCTAssertNil(store.record(TaskID(rawValue: 1)))
        store.apply(Array(CannedEvents.lifecycle(2, "GET", "http://t/2", status: 200, bytes: 11, totalMs: 1).dropFirst(2)))
        XCTAssertEqual(store.record(TaskID(rawValue: 3))?.body?.count, 11, "task 1's body left the budget with it: two held, none released")
        store.apply(CannedEvents.lifecycle(4, "GET", "http://t/4", status: 200, bytes: 11, totalMs: 1))
        XCTAssertEqual(store.record(TaskID(rawValue: 3))?.bodyReleased, true, "three held: the oldest goes")
        XCTAssertEqual(store.removeEndedPrefix().map(\.id.rawValue), [2, 3, 4])
        XCTAssertTrue(store.allRecords.isEmpty)
        store.apply(CannedEvents.lifecycle(5, "GET", "http://t/5", status: 200, bytes: 11, totalMs: 1))
        XCTAssertEqual(store.record(TaskID(rawValue: 5))?.body?.count, 11)
    }

    /// A proxied request's body streams in as it is sent; the end event's record of it becomes the
    /// request's body (replay and HAR send and write it). Cut at the proxy's limit, replay is
    /// refused saying how much was kept; a tunnel, or a body announced and never recorded, is refused too.
    func testAStreamedRequestBodyBecomesTheRequestsBodyAndACutOneRefusesAReplay() throws {
        func completed(_ id: Int, sent: StreamedRequestBody) -> [TaskEvent] {
            var events = CannedEvents.lifecycle(id, "POST", "http://h.test/upload", status: 200, bytes: 2, totalMs: 4)
            var head = CannedEvents.sent("POST", "http://h.test/upload")
            head.headers.append(HTTPHeader(name: "Transfer-Encoding", value: "chunked"))
            events[2] = CannedEvents.simple(id, .requestSent(head), at: 100.015)
            guard case .completed(var completion) = events[events.count - 1].kind else { return events }
            completion.sentBody = sent
            events[events.count - 1] = CannedEvents.simple(id, .completed(completion), at: 100.05)
            return events
        }
        let store = TaskStore()
        let body = Data("a=1&b=2".utf8)
        store.apply(completed(1, sent: StreamedRequestBody(kept: body, size: 7)))
        store.apply(completed(2, sent: StreamedRequestBody(kept: body.prefix(3), size: 7)))
        let whole = try XCTUnwrap(store.record(TaskID(rawValue: 1)))
        XCTAssertEqual(whole.request.body, .data(body))
        XCTAssertNil(whole.resendRefusal)
        let cut = try XCTUnwrap(store.record(TaskID(rawValue: 2)))
        XCTAssertEqual(cut.request.body, .data(body.prefix(3)))
        XCTAssertEqual(cut.resendRefusal, "#2's body streamed through the proxy and only its first 3 of 7 bytes were kept: cannot resend it as it was")
        let entries = SessionExport.harEntries(from: [whole, cut])
        XCTAssertEqual(entries.map(\.request.body), [body, body.prefix(3)])
        XCTAssertNil(entries[0].comment)
        XCTAssertEqual(entries[1].comment, "request body truncated: the first 3 of 7 bytes (the rest streamed through the proxy unkept)")

        var unrecorded = CannedEvents.lifecycle(3, "POST", "http://h.test/upload", status: 200, bytes: 2, totalMs: 4)
        var head = CannedEvents.sent("POST", "http://h.test/upload")
        head.headers.append(HTTPHeader(name: "Transfer-Encoding", value: "chunked"))
        unrecorded[2] = CannedEvents.simple(3, .requestSent(head), at: 100.015)
        store.apply(unrecorded)
        XCTAssertEqual(store.record(TaskID(rawValue: 3))?.resendRefusal, "#3's body streamed through the proxy unkept: cannot resend it as it was")
        store.apply(CannedEvents.lifecycle(4, "POST", "http://h.test/empty", status: 200, bytes: 2, totalMs: 4))
        XCTAssertNil(store.record(TaskID(rawValue: 4))?.resendRefusal, "a POST with no body is sent again")
    }
}

/// A long table is sorted in two halves at once and merged: the same order as one sort, ties in creation order.
final class TaskSortTests: XCTestCase {
    func testALongTableSortsInTheSameOrderAsOneSortWouldTiesInCreationOrder() {
        let store = TaskStore()
        let hosts = ["b.test", "a.test", "C.test", "a.test:8080", "b.test"]
        var events: [TaskEvent] = []
        for n in 1...250_000 {
            let host = hosts[(n * 7919) % hosts.count]
            events.append(CannedEvents.created(n, n % 3 == 0 ? "POST" : "GET", "http://\(host)/item/\((n * 31) % 1000)"))
        }
        store.apply(events)
        for (key, descending) in [(TaskSort.host, false), (.path, true)] {
            let order = TaskOrder(key, descending: descending)
            let listing = store.listing(filter: .all, order: order, now: 0)
            let shown = store.records(listing, rows: 0..<250_000).map(\.id.rawValue)
            // The expected order, from the same keys with Swift's own comparisons.
            let keys: [[UInt8]] = [[]] + (1...250_000).map { n in
                Array((key == .host ? hosts[(n * 7919) % hosts.count].lowercased() : "/item/\((n * 31) % 1000)").utf8)
            }
            let expected = (1...250_000).sorted { a, b in
                if keys[a] == keys[b] { return a < b }
                return keys[a].lexicographicallyPrecedes(keys[b]) != descending
            }
            XCTAssertEqual(shown, expected, "\(order)")
        }
    }

    /// Keys are first compared by eight bytes after the prefix they all share: keys that are
    /// prefixes of others, that differ only past those eight bytes, that are missing or empty,
    /// still sort byte by byte, ties in creation order, absent names last either way.
    func testTextKeysThatAgreeInTheirFirstBytesSortByTheWholeKey() {
        let names: [String?] = ["shared-abcdefgh-2", "shared-abcdefgh-10", "shared-", "shared-abcdefgh", nil, "shared-abc", "Shared-ABC",
                                "shared-abcdefgh-2", "shared-abcdefghi", "", "shared-ab", nil, "shared-abcdefgh-1"]
        let store = TaskStore()
        store.apply(names.enumerated().map { CannedEvents.created($0.offset + 1, "GET", "http://h.test/", name: $0.element) })
        for descending in [false, true] {
            let listing = store.listing(filter: .all, order: TaskOrder(.name, descending: descending), now: 0)
            let shown = store.records(listing, rows: 0..<names.count).map(\.id.rawValue)
            let keys = names.map { $0.map { Array($0.lowercased().utf8) } }
            let expected = (1...names.count).sorted { a, b in
                switch (keys[a - 1], keys[b - 1]) {
                case (nil, nil): return a < b
                case (nil, _): return false
                case (_, nil): return true
                case let (x?, y?): return x == y ? a < b : x.lexicographicallyPrecedes(y) != descending
                }
            }
            XCTAssertEqual(shown, expected, descending ? "▼" : "▲")
        }
    }
}
