import Dispatch
import Foundation
import ReqtopNetworking
import ReqtopSync

/// reqtop's engine in this process: one `SessionManager`, one bus observer counting terminal events.
enum EngineClient {
    static func run(url: URL, count: Int, concurrency: Int) -> ReplaySample {
        var configuration = SessionConfiguration()
        configuration.maxConcurrentTasks = concurrency
        configuration.maxConcurrentTasksPerHost = concurrency
        let manager = SessionManager(configuration: configuration)
        let done = DispatchSemaphore(value: 0)
        let tally = Protected((ended: 0, failed: 0))
        let subscription = manager.bus.subscribeBatches { events in
            var ended = 0, failed = 0
            for event in events where event.isTerminal {
                ended += 1
                if event.name != .completed { failed += 1 }
            }
            guard ended > 0 else { return }
            let all = tally.withLock { t -> Bool in
                t.ended += ended
                t.failed += failed
                return t.ended == count
            }
            if all { done.signal() }
        }
        let request = HTTPRequest(url: HTTPURL(string: url.absoluteString)!)
        let cpu0 = Clock.selfCPU()
        let start = Clock.now()
        for _ in 0..<count {
            try? manager.dataTask(with: request).resume()
        }
        done.wait()
        let wall = Clock.now() - start
        let cpu = Clock.selfCPU() - cpu0
        subscription.cancel()
        manager.invalidate()
        return ReplaySample(requests: count, wall: wall, cpu: cpu, errors: tally.withLock { $0.failed })
    }
}
