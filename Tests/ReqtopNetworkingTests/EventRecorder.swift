import Foundation
import ReqtopNetworking
import ReqtopSync
import XCTest

/// Records every bus event and lets a test wait for a condition on them (never a fixed sleep).
final class EventRecorder: Sendable {
    private let recorded = Protected([TaskEvent]())
    private let bus: EventBus
    private let subscription: EventBus.Subscription

    init(bus: EventBus) {
        self.bus = bus
        let recorded = self.recorded
        subscription = bus.subscribeBatches { events in recorded.withLock { $0.append(contentsOf: events) } }
    }

    deinit { bus.unsubscribe(subscription) }

    var events: [TaskEvent] { recorded.snapshot }

    func events(of task: TaskID) -> [TaskEvent] { events.filter { $0.task == task } }

    func names(of task: TaskID) -> [TaskEvent.Name] { events(of: task).map(\.name) }

    /// Waits until `condition` holds for the recorded events, polling with a deadline.
    @discardableResult
    func wait(timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line,
              until condition: ([TaskEvent]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(events) { return true }
            usleep(2000)
        }
        XCTFail("timed out waiting for events; got \(events.map { "\($0.task) \($0.name)" }.suffix(20))", file: file, line: line)
        return false
    }

    /// Waits for the terminal event of each of `tasks`.
    @discardableResult
    func waitForEnd(of tasks: [TaskID], timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let wanted = Set(tasks)
        return wait(timeout: timeout, file: file, line: line) { events in
            Set(events.filter { $0.isTerminal && wanted.contains($0.task) }.map(\.task)).count == wanted.count
        }
    }

    func terminalEvent(of task: TaskID) -> TaskEvent? { events(of: task).last { $0.isTerminal } }
}

/// Runs `body` and waits for the completion handler it wires up.
func awaitCompletion<T: Sendable>(timeout: TimeInterval = 30, _ body: (@escaping @Sendable (T) -> Void) -> Void) -> T? {
    let result = Protected<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    body { value in
        result.withLock { $0 = value }
        done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success else {
        XCTFail("completion handler not called within \(timeout) s")
        return nil
    }
    return result.snapshot
}

/// The servers started by scripts/with-test-servers.sh; in CI their absence is a failure, elsewhere a skip.
func requireServer(_ url: URL?, _ name: String) throws -> URL {
    if let url { return url }
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("\(name) is not running: run the tests through `make test`")
    }
    throw XCTSkip("\(name) is not running (use `make test`, which starts it)")
}

/// Resident set size of this process in bytes, from /proc.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    let kb = Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return kb * 1024
}
