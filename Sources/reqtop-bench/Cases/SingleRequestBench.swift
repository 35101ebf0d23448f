import Foundation

/// One GET including process start: `reqtop run --headless` on a one-request list vs `curl -s -o /dev/null URL`.
struct SingleRequestBench {
    let settings: BenchSettings
    let reqtopRunAvailable: Bool

    func run() throws -> [BenchRow] {
        let name = "single GET wall (process start included): reqtop run vs curl"
        guard reqtopRunAvailable else { return [.skipped(name, reason: "the reqtop binary has no `run` command")] }
        let url = settings.nginxURL + "/files/100b.bin"
        let files = try RequestFiles(url: url, count: 1)
        defer { files.remove() }
        let reqtop = [Binaries.reqtop, "run", files.httpFile, "--headless"]
        let curl = ["curl", "-s", "-o", "/dev/null", url]
        for _ in 0..<2 { _ = try BenchProcess.run(reqtop); _ = try BenchProcess.run(curl) }
        var mine: [Double] = [], theirs: [Double] = []
        var failures = 0
        for _ in 0..<settings.singleRuns {
            let a = try BenchProcess.run(reqtop), b = try BenchProcess.run(curl)
            if a.status != 0 || b.status != 0 { failures += 1 }
            mine.append(a.wall)
            theirs.append(b.wall)
        }
        let m = Stats.median(mine), t = Stats.median(theirs)
        log("single GET: reqtop \(Figure.millis(m)), curl \(Figure.millis(t)), \(failures) failed runs")
        return [BenchRow(name, reqtop: Figure.spread(Spread(mine), Figure.millis), peers: "curl " + Figure.spread(Spread(theirs), Figure.millis),
                         ratio: m / t, target: "≤ 1.5×",
                         met: m / t <= 1.5, values: ["reqtop_wall_s": m, "curl_wall_s": t, "failed_runs": Double(failures)])]
    }
}
