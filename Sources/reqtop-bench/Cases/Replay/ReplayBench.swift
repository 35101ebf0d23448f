import Foundation

/// N GETs of nginx's 100 B file at each concurrency, by every `ReplayClient`, runs interleaved so drift hits all alike.
struct ReplayBench {
    let settings: BenchSettings
    /// False when the `reqtop` binary has no `run` command yet: that client is left out.
    let reqtopRunAvailable: Bool

    func run() throws -> [BenchRow] {
        let url = settings.nginxURL + "/files/100b.bin"
        let files = try RequestFiles(url: url, count: settings.replayRequests)
        defer { files.remove() }
        let clients = ReplayClient.allCases.filter { ($0 != .reqtopRun && $0 != .reqtopRunText) || reqtopRunAvailable }
        var rows: [BenchRow] = []
        for concurrency in settings.replayConcurrencies {
            var samples: [ReplayClient: [ReplaySample]] = [:]
            for client in clients { _ = try measure(client, url: url, files: files, concurrency: concurrency, count: min(200, settings.replayRequests)) }
            for _ in 0..<settings.replayRuns {
                for client in clients {
                    samples[client, default: []].append(try measure(client, url: url, files: files, concurrency: concurrency,
                                                                    count: settings.replayRequests))
                }
            }
            let summary = Dictionary(uniqueKeysWithValues: samples.map { ($0.key, ReplaySummary($0.value)) })
            for client in clients {
                let s = summary[client]!
                log("replay c=\(concurrency) \(client.rawValue): \(Figure.rate(s.requestsPerSecond)), \(Figure.micros(s.cpuPerRequest)) CPU/req, \(s.errors) errors")
            }
            rows += ReplayRows(concurrency: concurrency, summary: summary, reqtopRunAvailable: reqtopRunAvailable).rows
        }
        return rows
    }

    private func measure(_ client: ReplayClient, url: String, files: RequestFiles, concurrency: Int, count: Int) throws -> ReplaySample {
        switch client {
        case .engine:
            return EngineClient.run(url: URL(string: url)!, count: count, concurrency: concurrency)
        case .urlSession:
            return URLSessionClient.run(url: URL(string: url)!, count: count, concurrency: concurrency)
        case .curl:
            let config = count == settings.replayRequests ? files.curlConfig : try RequestFiles(url: url, count: count).curlConfig
            let outcome = try BenchProcess.run(["curl", "--parallel", "--parallel-max", "\(concurrency)", "-s", "-K", config])
            return ReplaySample(requests: count, wall: outcome.wall, cpu: outcome.cpu, errors: outcome.status == 0 ? 0 : count)
        case .reqtopRun, .reqtopRunText:
            let list = count == settings.replayRequests ? files.httpFile : try RequestFiles(url: url, count: count).httpFile
            let outcome = try BenchProcess.run([Binaries.reqtop, "run", list, "--headless", "--events", client == .reqtopRun ? "jsonl" : "text",
                                              "--concurrency", "\(concurrency)"])
            return ReplaySample(requests: count, wall: outcome.wall, cpu: outcome.cpu, errors: outcome.status == 0 ? 0 : count)
        }
    }
}
