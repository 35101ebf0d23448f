import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopTestServer

/// HTTP/2 through an intercepting proxy: `curl --http2` speaks HTTP/2 to `reqtop proxy --intercept`
/// and to `mitmdump` (each with its own CA) in front of nginx's TLS port, beside curl to nginx
/// directly. Requests per second for many small GETs multiplexed at c=8 on one connection, the
/// latency a sequential GET adds, and the flows each proxy counted against the requests sent.
struct HTTP2ProxyBench {
    let settings: BenchSettings

    private struct Measured {
        var rate: Double
        var latency: Double
        var failures: Int
        var rates: Spread
        var latencies: [Double]
    }

    func run() throws -> [BenchRow] {
        guard !settings.nginxTLSURL.isEmpty, !settings.nginxCAFile.isEmpty else {
            return [.skipped("proxy-h2", reason: "REQTOP_NGINX_TLS_URL and REQTOP_NGINX_CA_FILE are not set (scripts/with-test-servers.sh sets them)")]
        }
        let url = settings.nginxTLSURL + "/files/100b.bin"
        let count = settings.quick ? 200 : 4000
        let sequential = settings.quick ? 50 : 1000
        let runs = max(1, settings.replayRuns)
        let parallel = try RequestFiles(url: url, count: count)
        defer { parallel.remove() }
        let serial = try RequestFiles(url: url, count: sequential)
        defer { serial.remove() }
        let work = NSTemporaryDirectory() + "reqtop-bench-h2-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        func measure(proxy: String?, ca: String) throws -> Measured {
            let via = proxy.map { ["-x", $0] } ?? ["--noproxy", "*"]
            var rates: [Double] = [], latencies: [Double] = []
            var failures = 0
            for _ in 0..<runs {
                let many = try BenchProcess.run(["curl", "-s", "--http2", "--cacert", ca, "--parallel", "--parallel-max", "8",
                                                 "-K", parallel.curlConfig] + via)
                let one = try BenchProcess.run(["curl", "-s", "--http2", "--cacert", ca, "-K", serial.curlConfig] + via)
                if many.status != 0 || one.status != 0 { failures += 1 }
                rates.append(Double(count) / many.wall)
                latencies.append(one.wall / Double(sequential))
            }
            return Measured(rate: Stats.median(rates), latency: Stats.median(latencies), failures: failures, rates: Spread(rates), latencies: latencies)
        }
        let sent = runs * (count + sequential)

        let direct = try measure(proxy: nil, ca: settings.nginxCAFile)

        // reqtop: its CA made in a folder of this run (XDG_DATA_HOME), its events counted from its output.
        func startReqtop(output: String) throws -> (BackgroundProcess, port: Int) {
            let previous = getenv("XDG_DATA_HOME").map { String(cString: $0) }
            setenv("XDG_DATA_HOME", work, 1)
            defer { if let previous { setenv("XDG_DATA_HOME", previous, 1) } else { unsetenv("XDG_DATA_HOME") } }
            let port = LoopbackPort.unused()
            return (try BackgroundProcess([Binaries.reqtop, "proxy", "--intercept", "--headless", "--events", "jsonl", "--cacert",
                                           settings.nginxCAFile, "--port", String(port)], port: port, stdout: output), port)
        }
        let reqtopOutput = work + "/reqtop.jsonl"
        let (reqtop, reqtopPort) = try startReqtop(output: reqtopOutput)
        let mine = try measure(proxy: "http://127.0.0.1:\(reqtopPort)", ca: work + "/reqtop/reqtop-ca.pem")
        let mineUsage = reqtop.stop()
        let mineCount = Self.lines(in: reqtopOutput) { $0.contains("\"event\":\"completed\"") }

        // Real clients side by side (httpx with http2=True, a websockets client): a fresh instance each.
        let clientsOutput = work + "/reqtop-clients.jsonl"
        let (forClients, clientsPort) = try startReqtop(output: clientsOutput)
        let mineClients = try realClients(proxy: "http://127.0.0.1:\(clientsPort)", ca: work + "/reqtop/reqtop-ca.pem")
        _ = forClients.stop()
        let mineSeen = (requests: Self.lines(in: clientsOutput) { $0.contains("\"event\":\"completed\"") && !$0.contains("\"status\":101") },
                        messages: Self.lines(in: clientsOutput) { $0.contains("\"event\":\"message\"") && ($0.contains("\"opcode\":1,") || $0.contains("\"opcode\":2,")) })

        var theirs: Measured?
        var theirUsage: BackgroundProcess.Usage?
        var theirCount: Int?
        var theirClients: String?
        var theirSeen: (requests: Int, messages: Int)?
        let mitmdump = FileManager.default.currentDirectoryPath + "/.venv-bench/bin/mitmdump"
        if FileManager.default.isExecutableFile(atPath: mitmdump) {
            let port = LoopbackPort.unused()
            let output = work + "/mitmdump.txt"
            let peer = try BackgroundProcess([mitmdump, "--listen-host", "127.0.0.1", "-p", String(port), "--set", "confdir=\(work)/mitmproxy",
                                              "--set", "ssl_verify_upstream_trusted_ca=\(settings.nginxCAFile)"], port: port, stdout: output)
            theirs = try measure(proxy: "http://127.0.0.1:\(port)", ca: work + "/mitmproxy/mitmproxy-ca-cert.pem")
            theirUsage = peer.stop()
            // One "<< HTTP/2.0 200 OK" line per flow it answered.
            theirCount = Self.lines(in: output) { $0.trimmingCharacters(in: .whitespaces).hasPrefix("<< HTTP/2.0 ") }
            let clientsPort = LoopbackPort.unused()
            let clientsOutput = work + "/mitmdump-clients.txt"
            let forClients = try BackgroundProcess([mitmdump, "--listen-host", "127.0.0.1", "-p", String(clientsPort), "--set",
                                                    "confdir=\(work)/mitmproxy", "--set", "ssl_verify_upstream_trusted_ca=\(settings.nginxCAFile)"],
                                                   port: clientsPort, stdout: clientsOutput)
            theirClients = try realClients(proxy: "http://127.0.0.1:\(clientsPort)", ca: work + "/mitmproxy/mitmproxy-ca-cert.pem")
            _ = forClients.stop()
            theirSeen = (requests: Self.lines(in: clientsOutput) { $0.trimmingCharacters(in: .whitespaces).hasPrefix("<< HTTP/2.0 ") },
                         messages: Self.lines(in: clientsOutput) { $0.contains("-> WebSocket ") || $0.contains("<- WebSocket ") })
        } else {
            log("proxy-h2: \(mitmdump) is missing (make bench installs mitmproxy there unless BENCH_QUICK): no mitmdump figures")
        }

        let added = mine.latency - direct.latency
        let theirAdded = theirs.map { $0.latency - direct.latency }
        log("proxy-h2: direct \(Figure.rate(direct.rate)), reqtop \(Figure.rate(mine.rate)), mitmdump \(theirs.map { Figure.rate($0.rate) } ?? "–"); "
            + "flows reqtop \(mineCount), mitmdump \(theirCount.map(String.init) ?? "–") of \(sent) sent")
        let peerRate = Figure.proxyPeers(mitmdump: theirs?.rates, direct: direct.rates)
        var values: [String: Double] = ["direct_req_per_s": direct.rate, "reqtop_req_per_s": mine.rate, "reqtop_added_latency_s": added,
                                        "reqtop_cpu_per_request_s": mineUsage.cpu / Double(sent),
                                        "reqtop_peak_rss_bytes": Double(mineUsage.peakRSS), "requests_sent": Double(sent),
                                        "reqtop_flows": Double(mineCount),
                                        "failed_runs": Double(direct.failures + mine.failures + (theirs?.failures ?? 0))]
        if let theirs, let theirUsage, let theirAdded, let theirCount {
            values["mitmdump_req_per_s"] = theirs.rate
            values["mitmdump_added_latency_s"] = theirAdded
            values["mitmdump_cpu_per_request_s"] = theirUsage.cpu / Double(sent)
            values["mitmdump_peak_rss_bytes"] = Double(theirUsage.peakRSS)
            values["mitmdump_flows"] = Double(theirCount)
        }
        values["reqtop_clients_requests"] = Double(mineSeen.requests)
        values["reqtop_clients_messages"] = Double(mineSeen.messages)
        if let theirSeen {
            values["mitmdump_clients_requests"] = Double(theirSeen.requests)
            values["mitmdump_clients_messages"] = Double(theirSeen.messages)
        }
        log("proxy-h2: httpx + websockets: the clients said \(mineClients) through reqtop, \(theirClients ?? "–") through mitmdump")
        let sameCounts = theirSeen.map { $0 == mineSeen } ?? true
        return [
            BenchRow("proxy real clients (httpx http2=True: 20 GETs; websockets: 20 messages): requests, messages shown",
                     reqtop: "\(mineSeen.requests), \(mineSeen.messages)", peers: theirSeen.map { "mitmdump \($0.requests), \($0.messages)" } ?? "—",
                     ratio: nil, target: "20, 20, as mitmdump", met: mineSeen.requests == 20 && mineSeen.messages == 20 && sameCounts),
            BenchRow("proxy HTTP/2 c=8 req/s (intercepted, 100 B GETs): reqtop vs mitmdump", reqtop: Figure.rate(mine.rates), peers: peerRate,
                     ratio: theirs.map { mine.rate / $0.rate }, target: theirs == nil ? "—" : "≥ 5× mitmdump",
                     met: theirs.map { mine.rate >= 5 * $0.rate }, values: values),
            BenchRow("proxy HTTP/2 added latency per sequential GET (one connection)", reqtop: Figure.added(mine.latencies, over: direct.latency),
                     peers: theirs.map { "mitmdump " + Figure.added($0.latencies, over: direct.latency) } ?? "—", ratio: theirAdded.map { added / $0 },
                     target: theirAdded == nil ? "—" : "≤ 1.0× mitmdump", met: theirAdded.map { added <= $0 }),
            BenchRow("proxy HTTP/2 flows shown of \(sent) sent", reqtop: String(mineCount), peers: theirCount.map { "mitmdump \($0)" } ?? "—",
                     ratio: nil, target: "all, as mitmdump", met: mineCount == sent && (theirCount ?? sent) == sent),
        ]
    }

    /// httpx (`http2=True`) gets 20 files from nginx's TLS port, and a websockets client exchanges 10
    /// messages each way with an echo server on loopback, both through `proxy`; what the clients saw.
    private func realClients(proxy: String, ca: String) throws -> String {
        let python = FileManager.default.currentDirectoryPath + "/.venv/bin/python"
        let outcome = try BenchProcess.run([python, "-c", Self.clientsScript, proxy, ca, settings.nginxTLSURL], captureOutput: true, timeout: 120)
        return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines) + (outcome.status == 0 ? "" : " (exit \(outcome.status))")
    }

    private static let clientsScript = #"""
    import asyncio, ssl, sys, httpx
    from websockets.asyncio.server import serve
    from websockets.asyncio.client import connect
    async def echo(ws):
        async for message in ws:
            await ws.send(message)
    async def main():
        proxy, ca, tls = sys.argv[1:4]
        async with httpx.AsyncClient(http2=True, proxy=proxy, verify=ssl.create_default_context(cafile=ca)) as client:
            responses = await asyncio.gather(*[client.get(tls + f"/files/100b.bin?i={i}") for i in range(20)])
        async with serve(echo, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}/bench", proxy=proxy) as ws:
                for i in range(10):
                    await ws.send(f"message {i}")
                    await ws.recv()
        print(f"{sum(r.http_version == 'HTTP/2' and r.status_code == 200 for r in responses)} HTTP/2 200s, 10 echoes")
    asyncio.run(main())
    """#

    /// How many lines of the file at `path` satisfy `matches`.
    private static func lines(in path: String, where matches: (Substring) -> Bool) -> Int {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").count(where: matches)
    }
}
