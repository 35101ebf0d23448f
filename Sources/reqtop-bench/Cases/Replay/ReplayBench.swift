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
            let outcome = try Subprocess.run(["curl", "--parallel", "--parallel-max", "\(concurrency)", "-s", "-K", config])
            return ReplaySample(requests: count, wall: outcome.wall, cpu: outcome.cpu, errors: outcome.status == 0 ? 0 : count)
        case .reqtopRun, .reqtopRunText:
            let list = count == settings.replayRequests ? files.httpFile : try RequestFiles(url: url, count: count).httpFile
            let outcome = try Subprocess.run([Binaries.reqtop, "run", list, "--headless", "--events", client == .reqtopRun ? "jsonl" : "text",
                                              "--concurrency", "\(concurrency)"])
            return ReplaySample(requests: count, wall: outcome.wall, cpu: outcome.cpu, errors: outcome.status == 0 ? 0 : count)
        }
    }
}

/// Medians of one client's runs.
struct ReplaySummary {
    var requestsPerSecond: Double
    var cpuPerRequest: Double
    var errors: Int

    init(_ samples: [ReplaySample]) {
        requestsPerSecond = Stats.median(samples.map(\.requestsPerSecond))
        cpuPerRequest = Stats.median(samples.map(\.cpuPerRequest))
        errors = samples.map(\.errors).reduce(0, +)
    }
}

/// The table rows of one concurrency: reqtop (whole process and in-process engine) against curl and URLSession.
struct ReplayRows {
    let concurrency: Int
    let summary: [ReplayClient: ReplaySummary]
    let reqtopRunAvailable: Bool

    var rows: [BenchRow] {
        let c = concurrency
        var rows: [BenchRow] = []
        let mine: [ReplayClient] = reqtopRunAvailable ? [.reqtopRun, .reqtopRunText, .engine] : [.engine]
        if !reqtopRunAvailable { rows.append(.skipped("replay c=\(c): reqtop run", reason: "the reqtop binary has no `run` command")) }
        let curl = summary[.curl]!, session = summary[.urlSession]!
        for client in mine {
            let s = summary[client]!
            let ratio = s.requestsPerSecond / curl.requestsPerSecond
            let judged = c == 64 && client != .reqtopRunText
            let values = ["reqtop_rps": s.requestsPerSecond, "curl_rps": curl.requestsPerSecond, "urlsession_rps": session.requestsPerSecond,
                          "reqtop_cpu_per_request_s": s.cpuPerRequest, "curl_cpu_per_request_s": curl.cpuPerRequest,
                          "urlsession_cpu_per_request_s": session.cpuPerRequest, "reqtop_errors": Double(s.errors),
                          "curl_errors": Double(curl.errors), "urlsession_errors": Double(session.errors)]
            rows.append(BenchRow("replay c=\(c) req/s: \(client.rawValue) vs curl --parallel", reqtop: Figure.rate(s.requestsPerSecond),
                                 peers: "curl " + Figure.rate(curl.requestsPerSecond), ratio: ratio,
                                 target: judged ? "≥ 1.0×" : "—", met: judged ? ratio >= 1.0 : nil, values: values))
            let cpuRatio = s.cpuPerRequest / curl.cpuPerRequest
            rows.append(BenchRow("replay c=\(c) CPU/request: \(client.rawValue) vs curl --parallel", reqtop: Figure.micros(s.cpuPerRequest),
                                 peers: "curl " + Figure.micros(curl.cpuPerRequest), ratio: cpuRatio,
                                 target: judged ? "≤ 1.0×" : "—", met: judged ? cpuRatio <= 1.0 : nil, values: values))
            if client == .reqtopRunText { continue } // information only: req/s and CPU beside curl are enough
            let sessionRatio = s.requestsPerSecond / session.requestsPerSecond
            let targeted = c == 8 || c == 64
            rows.append(BenchRow("replay c=\(c) req/s: \(client.rawValue) vs URLSession", reqtop: Figure.rate(s.requestsPerSecond),
                                 peers: "URLSession " + Figure.rate(session.requestsPerSecond), ratio: sessionRatio,
                                 target: targeted ? "≥ 8×" : "—", met: targeted ? sessionRatio >= 8 : nil, values: values))
        }
        return rows
    }
}
