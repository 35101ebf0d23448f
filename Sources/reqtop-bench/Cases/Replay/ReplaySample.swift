/// One replay run of one client: N requests at concurrency C.
struct ReplaySample {
    var requests: Int
    var wall: Double
    /// Client CPU seconds (the child's for subprocesses, this process's delta in-process).
    var cpu: Double
    var errors: Int

    var requestsPerSecond: Double { Double(requests) / wall }
    var cpuPerRequest: Double { cpu / Double(requests) }
}

/// The clients compared in the replay case.
enum ReplayClient: String, CaseIterable, Codable {
    case reqtopRun = "reqtop run"
    /// The same process printing readable lines instead of JSON Lines: shows what the JSON encoding costs.
    case reqtopRunText = "reqtop run --events text"
    case engine = "engine in-process"
    case curl = "curl --parallel"
    case urlSession = "URLSession"
}
