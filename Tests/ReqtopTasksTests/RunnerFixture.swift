import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopRequestLists
import ReqtopSync
import ReqtopTestServer
import ReqtopTestSupport
import XCTest
import ReqtopTasks

/// A test case with the embedded server running and helpers to run `.http` text through a runner.
class RunnerTestCase: EmbeddedServerTestCase {
    /// `text` parsed as a `.http` list (or as `format`), with `{{base}}` set to the server.
    func input(_ text: String, format: RequestListFormat = .http) throws -> RunnerInput {
        let list = try RequestListLoader.load(text: text, path: "test.\(format.rawValue)", format: format)
        return RunnerInput(list: list, variables: VariableContext(commandLine: ["base": server.baseURL.absoluteString]))
    }

    /// Runs `text` to the end and returns the outcome and every bus event.
    func run(_ text: String, format: RequestListFormat = .http, options: RunnerOptions = RunnerOptions(),
             configuration: SessionConfiguration = SessionConfiguration(),
             configure: (RequestListRunner) -> Void = { _ in }) throws -> (RunOutcome, [TaskEvent]) {
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidate() }
        let recorder = EventRecorder(bus: manager.bus)
        let runner = try RequestListRunner(manager: manager, inputs: [input(text, format: format)], options: options)
        configure(runner)
        let outcome = try XCTUnwrap(waitForOutcome(runner))
        // The terminal events are posted right after the completion handlers: wait until all arrived.
        try recorder.waitForEnd(of: outcome.results.compactMap(\.task), timeout: 10)
        recorder.flush() // the scripts' events, posted after the tasks' ends and before the outcome
        return (outcome, recorder.events)
    }

    /// Starts `runner`, calls `whileRunning`, and waits for the outcome.
    func waitForOutcome(_ runner: RequestListRunner, timeout: Double = 30, whileRunning: () -> Void = {}) -> RunOutcome? {
        let result = Protected<RunOutcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        runner.start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        whileRunning()
        guard done.wait(timeout: .now() + timeout) == .success else {
            XCTFail("run did not finish within \(timeout) s")
            return nil
        }
        return result.snapshot
    }
}

extension SessionConfiguration {
    /// An engine that runs at most `concurrency` tasks (at once and per host), as a headless run's does.
    static func limited(to concurrency: Int) -> SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.maxConcurrentTasks = concurrency
        configuration.maxConcurrentTasksPerHost = concurrency
        return configuration
    }
}

extension RunResult {
    var httpStatus: Int? {
        if case .completed(let status) = status { return status }
        return nil
    }
}

extension TaskEvent {
    var createdDescription: TaskDescription? {
        if case .created(let description) = kind { return description }
        return nil
    }
}
