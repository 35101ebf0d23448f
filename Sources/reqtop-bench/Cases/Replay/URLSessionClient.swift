import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopSync

/// The peer reqtop replaced: FoundationNetworking's `URLSession`, data tasks, at most C in flight (a semaphore).
enum URLSessionClient {
    static func run(url: URL, count: Int, concurrency: Int) -> ReplaySample {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = concurrency
        let session = URLSession(configuration: configuration)
        let slots = DispatchSemaphore(value: concurrency)
        let group = DispatchGroup()
        let errors = Protected(0)
        let cpu0 = Clock.selfCPU()
        let start = Clock.now()
        for _ in 0..<count {
            slots.wait()
            group.enter()
            session.dataTask(with: url) { _, response, error in
                if error != nil || (response as? HTTPURLResponse)?.statusCode != 200 { errors.withLock { $0 += 1 } }
                slots.signal()
                group.leave()
            }.resume()
        }
        group.wait()
        let wall = Clock.now() - start
        let cpu = Clock.selfCPU() - cpu0
        session.finishTasksAndInvalidate()
        return ReplaySample(requests: count, wall: wall, cpu: cpu, errors: errors.withLock { $0 })
    }
}
