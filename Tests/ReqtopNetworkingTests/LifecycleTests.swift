import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopNetworking
import ReqtopSync
import ReqtopTestSupport
import XCTest

/// Event order, terminal events, the registry and the state machine, against nginx and httpbin.
final class LifecycleTests: XCTestCase {
    func testEventOrderIsCreatedResumedRequestResponseProgressCompleted() throws {
        let nginx = try requireServer(TestEnvironment.nginxURL, "nginx")
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(nginx.appendingPathComponent("files/1m.bin")))
        try task.resume()
        recorder.waitForEnd(of: [task.id])

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
        let httpbin = try requireServer(TestEnvironment.httpbinURL, "httpbin")
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let paths = ["get", "status/404", "status/500", "bytes/2048", "headers"]
        let tasks = paths.map { manager.dataTask(with: HTTPRequest(httpbin.appendingPathComponent($0))) }
        for task in tasks { try task.resume() }
        recorder.waitForEnd(of: tasks.map(\.id))
        for task in tasks {
            XCTAssertEqual(recorder.events(of: task.id).filter(\.isTerminal).count, 1, "\(task)")
            XCTAssertEqual(task.state, .completed, "any HTTP status completes: \(task)")
        }
        guard case .completed(let notFound) = recorder.terminalEvent(of: tasks[1].id)?.kind else { return XCTFail() }
        XCTAssertEqual(notFound.response.status, 404)
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testIllegalTransitionsAreRefusedAndNotApplied() throws {
        let nginx = try requireServer(TestEnvironment.nginxURL, "nginx")
        let manager = SessionManager()
        let task = manager.dataTask(with: HTTPRequest(nginx.appendingPathComponent("files/100b.bin")))
        XCTAssertThrowsError(try task.suspend()) { error in
            XCTAssertEqual((error as? IllegalTransition)?.from, .suspended)
        }
        let secondResumeRefused = Protected(false)
        let response: TaskResponse<Data>? = awaitCompletion { done in
            let task = manager.dataTask(with: HTTPRequest(nginx.appendingPathComponent("files/100b.bin")), completionHandler: done)
            try? task.resume()
            do { try task.resume() } catch { secondResumeRefused.withLock { $0 = true } }
        }
        XCTAssertTrue(secondResumeRefused.snapshot, "a running task cannot be resumed again")
        XCTAssertEqual(response?.value?.count, 100)
        try task.cancel()
        XCTAssertEqual(task.state, .cancelled)
        XCTAssertThrowsError(try task.resume())
        XCTAssertThrowsError(try task.cancel())
        XCTAssertEqual(task.state, .cancelled)
    }

    func testCancelBeforeResumeCallsHandlerWithCancelledAndEmptiesRegistry() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let response: TaskResponse<Data>? = awaitCompletion { done in
            let task = manager.dataTask(with: HTTPRequest(URL(string: "http://127.0.0.1:9/never")!), completionHandler: done)
            XCTAssertEqual(manager.registeredTaskCount, 1)
            try? task.cancel()
        }
        XCTAssertEqual(response?.error?.code, .cancelled)
        recorder.wait { $0.contains { $0.name == .cancelled } }
        XCTAssertEqual(recorder.events.map(\.name), [.created, .cancelled])
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testThousandConcurrentTasksAllCompleteAndRegistryEmpties() throws {
        let nginx = try requireServer(TestEnvironment.nginxURL, "nginx")
        var configuration = SessionConfiguration()
        configuration.maxConcurrentTasks = 64
        let manager = SessionManager(configuration: configuration)
        let recorder = EventRecorder(bus: manager.bus)
        let url = nginx.appendingPathComponent("files/100b.bin")
        let tasks = (0..<1000).map { _ in manager.dataTask(with: HTTPRequest(url)) }
        for task in tasks { try task.resume() }
        recorder.waitForEnd(of: tasks.map(\.id), timeout: 60)
        let completed = recorder.events.filter { $0.name == .completed }
        XCTAssertEqual(completed.count, 1000)
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testAsyncResponseCarriesTypedValue() async throws {
        let httpbin = try requireServer(TestEnvironment.httpbinURL, "httpbin")
        let manager = SessionManager()
        struct Echo: Decodable, Sendable { let url: String; let headers: [String: String] }
        let request = HTTPRequest(httpbin.appendingPathComponent("get"), headers: [HTTPHeader(name: "X-Probe", value: "reqtop-test")])
        let response = await manager.response(for: request, serializer: DecodableResponseSerializer<Echo>())
        XCTAssertEqual(response.head?.status, 200)
        XCTAssertEqual(response.value?.headers["X-Probe"], "reqtop-test")
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertNotNil(response.timings)
    }

    func testJSONSerializerRunsAndSerializationErrorIsReported() throws {
        let nginx = try requireServer(TestEnvironment.nginxURL, "nginx")
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let response: TaskResponse<JSONValue>? = awaitCompletion { done in
            let task = manager.dataTask(with: HTTPRequest(nginx.appendingPathComponent("files/100b.bin")),
                                        serializer: JSONResponseSerializer(), completionHandler: done)
            try? task.resume()
        }
        XCTAssertEqual(response?.error?.code, .serializationFailed)
        recorder.wait { $0.contains(where: \.isTerminal) }
        guard case .completed(let completion) = recorder.events.last?.kind else { return XCTFail("transfer itself completed") }
        XCTAssertEqual(completion.serializer, "json")
        XCTAssertNotNil(completion.serializationError)
    }

    func testValidationFailureIsTypedFailedEvent() throws {
        let httpbin = try requireServer(TestEnvironment.httpbinURL, "httpbin")
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(httpbin.appendingPathComponent("status/418")),
                                    options: TaskOptions(validation: .successfulStatus))
        try task.resume()
        recorder.waitForEnd(of: [task.id])
        guard case .failed(let failure) = recorder.terminalEvent(of: task.id)?.kind else { return XCTFail() }
        XCTAssertEqual(failure.error.code, .validationFailed)
        XCTAssertEqual(failure.response?.status, 418)
        XCTAssertEqual(task.state, .failed)
    }
}
