import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopNetworking
import ReqtopNetworkingFoundation
import ReqtopNetworkingTesting
import ReqtopSync
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Event order, terminal events, the registry and the state machine, against the embedded server.
final class LifecycleTests: EmbeddedServerTestCase {

    func testEventOrderIsCreatedResumedRequestResponseProgressCompleted() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/bytes/1048576")))
        try task.resume()
        try recorder.waitForEnd(of: [task.id])

        let names = recorder.names(of: task.id)
        XCTAssertEqual(Array(names.prefix(4)), [.created, .resumed, .request, .response])
        XCTAssertEqual(names.last, .completed)
        XCTAssertTrue(names.dropFirst(4).dropLast().allSatisfy { $0 == .progress }, "\(names)")
        XCTAssertGreaterThan(names.filter { $0 == .progress }.count, 0)
        guard case .completed(let completion) = recorder.terminalEvent(of: task.id)?.kind else { return XCTFail() }
        XCTAssertEqual(completion.response.status, 200)
        XCTAssertEqual(completion.bytes, 1_048_576)
        XCTAssertEqual(completion.body?.count, 1_048_576)
        XCTAssertGreaterThan(completion.timings.total, 0)
        XCTAssertEqual(manager.registeredTaskCount, 0)
        XCTAssertEqual(task.state, .completed)
    }

    func testEveryTaskEndsInExactlyOneTerminalEvent() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let paths = ["/get", "/status/404", "/status/500", "/bytes/2048", "/headers"]
        let tasks = paths.map { manager.dataTask(with: HTTPRequest(server.url($0))) }
        for task in tasks { try task.resume() }
        try recorder.waitForEnd(of: tasks.map(\.id))
        for task in tasks {
            XCTAssertEqual(recorder.events(of: task.id).filter(\.isTerminal).count, 1, "\(task)")
            XCTAssertEqual(task.state, .completed, "any HTTP status completes: \(task)")
        }
        guard case .completed(let notFound) = recorder.terminalEvent(of: tasks[1].id)?.kind else { return XCTFail() }
        XCTAssertEqual(notFound.response.status, 404)
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testIllegalTransitionsAreRefusedAndNotApplied() throws {
        let manager = SessionManager()
        let task = manager.dataTask(with: HTTPRequest(server.url("/bytes/100")))
        XCTAssertThrowsError(try task.suspend()) { error in
            XCTAssertEqual((error as? IllegalTransition)?.from, .suspended)
        }
        let secondResumeRefused = Protected(false)
        let response: TaskResponse<Data> = try awaitCompletion { done in
            let task = manager.dataTask(with: HTTPRequest(server.url("/bytes/100")), completionHandler: done)
            try? task.resume()
            do { try task.resume() } catch { secondResumeRefused.withLock { $0 = true } }
        }
        XCTAssertTrue(secondResumeRefused.snapshot, "a running task cannot be resumed again")
        XCTAssertEqual(response.value?.count, 100)
        try task.cancel()
        XCTAssertEqual(task.state, .cancelled)
        XCTAssertThrowsError(try task.resume())
        XCTAssertThrowsError(try task.cancel())
        XCTAssertEqual(task.state, .cancelled)
    }

    func testCancelBeforeResumeCallsHandlerWithCancelledAndEmptiesRegistry() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let response: TaskResponse<Data> = try awaitCompletion { done in
            let task = manager.dataTask(with: HTTPRequest(URL(string: "http://127.0.0.1:9/never")!), completionHandler: done)
            XCTAssertEqual(manager.registeredTaskCount, 1)
            try? task.cancel()
        }
        XCTAssertEqual(response.error?.code, .cancelled)
        try recorder.wait { $0.contains { $0.name == .cancelled } }
        XCTAssertEqual(recorder.events.map(\.name), [.created, .cancelled])
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testATaskWaitingForAFreeSlotIsResumedWhenItStarts() throws {
        var configuration = SessionConfiguration()
        configuration.maxConcurrentTasks = 1
        let manager = SessionManager(configuration: configuration)
        let recorder = EventRecorder(bus: manager.bus)
        let first = manager.dataTask(with: HTTPRequest(server.url("/delay/0.2")))
        let second = manager.dataTask(with: HTTPRequest(server.url("/get")))
        try first.resume()
        try second.resume()
        XCTAssertEqual(second.state, .running, "resumed by its caller")
        try recorder.waitForEnd(of: [first.id, second.id])
        let events = recorder.events
        let firstResumed = try XCTUnwrap(events.first { $0.task == first.id && $0.name == .resumed })
        let secondResumed = try XCTUnwrap(events.first { $0.task == second.id && $0.name == .resumed })
        // The first holds the only slot for the server's 0.2 s delay (a lower bound: a slow machine cannot fail it).
        XCTAssertGreaterThanOrEqual(secondResumed.time - firstResumed.time, 0.19, "posted when its transfer starts, not while it waits")
        XCTAssertEqual(events.filter { $0.task == second.id }.map(\.name).prefix(3), [.created, .resumed, .request])
    }

    func testThousandConcurrentTasksAllCompleteAndRegistryEmpties() throws {
        var configuration = SessionConfiguration()
        configuration.maxConcurrentTasks = 64
        let manager = SessionManager(configuration: configuration)
        let recorder = EventRecorder(bus: manager.bus)
        let url = server.url("/bytes/100")
        let tasks = (0..<1000).map { _ in manager.dataTask(with: HTTPRequest(url)) }
        for task in tasks { try task.resume() }
        try recorder.waitForEnd(of: tasks.map(\.id), timeout: 60)
        let completed = recorder.events.filter { $0.name == .completed }
        XCTAssertEqual(completed.count, 1000)
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testAsyncResponseCarriesTypedValue() async throws {
        let manager = SessionManager()
        struct Echo: Decodable, Sendable { let url: String; let headers: [String: String] }
        let request = HTTPRequest(server.url("/get"), headers: [HTTPHeader(name: "X-Probe", value: "reqtop-test")])
        let response = await manager.response(for: request, serializer: DecodableResponseSerializer<Echo>())
        XCTAssertEqual(response.head?.status, 200)
        XCTAssertEqual(response.value?.headers["X-Probe"], "reqtop-test")
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertNotNil(response.timings)
    }

    func testJSONSerializerRunsAndSerializationErrorIsReported() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let response: TaskResponse<JSONValue> = try awaitCompletion { done in
            let task = manager.dataTask(with: HTTPRequest(server.url("/bytes/100")),
                                        serializer: JSONResponseSerializer(), completionHandler: done)
            try? task.resume()
        }
        XCTAssertEqual(response.error?.code, .serializationFailed)
        try recorder.wait { $0.contains(where: \.isTerminal) }
        guard case .completed(let completion) = recorder.events.last?.kind else { return XCTFail("transfer itself completed") }
        XCTAssertEqual(completion.serializer, "json")
        XCTAssertNotNil(completion.serializationError)
    }

    func testValidationFailureIsTypedFailedEvent() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/status/418")),
                                    options: TaskOptions(validation: .successfulStatus))
        try task.resume()
        try recorder.waitForEnd(of: [task.id])
        guard case .failed(let failure) = recorder.terminalEvent(of: task.id)?.kind else { return XCTFail() }
        XCTAssertEqual(failure.error.code, .validationFailed)
        XCTAssertEqual(failure.response?.status, 418)
        XCTAssertEqual(task.state, .failed)
    }
}
