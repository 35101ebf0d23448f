/// One client's runs: medians, lowest and highest.
struct ReplaySummary {
    var rate: Spread
    var cpu: Spread
    var errors: Int

    init(_ samples: [ReplaySample]) {
        rate = Spread(samples.map(\.requestsPerSecond))
        cpu = Spread(samples.map(\.cpuPerRequest))
        errors = samples.map(\.errors).reduce(0, +)
    }

    var requestsPerSecond: Double { rate.median }
    var cpuPerRequest: Double { cpu.median }
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
            // Issue 30: the whole `reqtop run` process beside curl at every concurrency (the engine alone is information).
            let judged = client == .reqtopRun
            let values = ["reqtop_rps": s.requestsPerSecond, "curl_rps": curl.requestsPerSecond, "urlsession_rps": session.requestsPerSecond,
                          "reqtop_cpu_per_request_s": s.cpuPerRequest, "curl_cpu_per_request_s": curl.cpuPerRequest,
                          "urlsession_cpu_per_request_s": session.cpuPerRequest, "reqtop_errors": Double(s.errors),
                          "curl_errors": Double(curl.errors), "urlsession_errors": Double(session.errors)]
            rows.append(BenchRow("replay c=\(c) req/s: \(client.rawValue) vs curl --parallel", reqtop: Figure.rate(s.rate),
                                 peers: "curl " + Figure.rate(curl.rate), ratio: ratio,
                                 target: judged ? "≥ 1.0×" : "—", met: judged ? ratio >= 1.0 : nil, values: values))
            let cpuRatio = s.cpuPerRequest / curl.cpuPerRequest
            rows.append(BenchRow("replay c=\(c) CPU/request: \(client.rawValue) vs curl --parallel", reqtop: Figure.spread(s.cpu, Figure.micros),
                                 peers: "curl " + Figure.spread(curl.cpu, Figure.micros), ratio: cpuRatio,
                                 target: judged ? "≤ 1.2×" : "—", met: judged ? cpuRatio <= 1.2 : nil, values: values))
            if client == .reqtopRunText { continue } // information only: req/s and CPU beside curl are enough
            let sessionRatio = s.requestsPerSecond / session.requestsPerSecond
            let targeted = c == 8 || c == 64
            rows.append(BenchRow("replay c=\(c) req/s: \(client.rawValue) vs URLSession", reqtop: Figure.rate(s.rate),
                                 peers: "URLSession " + Figure.rate(session.rate), ratio: sessionRatio,
                                 target: targeted ? "≥ 8×" : "—", met: targeted ? sessionRatio >= 8 : nil, values: values))
        }
        return rows
    }
}
