import Foundation
import ReqtopHTTPModel
import ReqtopScripts

/// The cost of a response handler: a typical one (keep a token, one test, one log line) run in
/// JavaScriptCore the way a run runs it — one context, its response handed in as JSON, its results
/// read back — `count` times, with the time of each. Issue 27's target: ≤ 100 µs median per script.
struct ScriptBench {
    let settings: BenchSettings

    func run() -> [BenchRow] {
        [measure(distinct: false), measure(distinct: true)]
    }

    /// `distinct`: every request has its own handler text (each compiled once), as a list written
    /// by hand has; else one handler (a `> handler.js` file) for all.
    private func measure(distinct: Bool) -> BenchRow {
        let count = settings.quick ? 100 : 1000
        let runtime = ScriptRuntime()
        let handler = Script(source: """
            client.global.set("token", response.body.json.token);
            client.test("status is 200", function () { client.assert(response.status === 200, "status " + response.status); });
            client.log("token", response.body.json.token);
            """, file: "bench.http", line: 1, column: 1)
        let body = #"{"json": {"token": "t-42", "user": {"id": 7, "name": "ada"}}, "url": "http://127.0.0.1/anything"}"#
        var times: [Double] = []
        var failures = 0
        for index in 0..<count {
            let input = ScriptInput(request: ScriptInput.Request(method: "GET", rawURL: "{{base}}/anything/\(index)", url: "http://127.0.0.1/anything/\(index)",
                                                                 headers: [], rawBody: "", body: ""),
                                    response: ScriptInput.Response(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                                                   body: body))
            var script = handler
            if distinct { script.source += "\n// request \(index)" }
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = runtime.run(script, with: input)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if outcome.error != nil || outcome.tests.first?.passed != true { failures += 1 }
        }
        let median = Stats.median(times)
        let what = distinct ? "\(count) distinct handlers (each compiled)" : "one handler \(count) times"
        log("scripts: \(what), median \(Figure.micros(median)), \(failures) failed")
        return BenchRow("a response handler script (token, test, log): \(what), median", reqtop: Figure.spread(Spread(times), Figure.micros),
                        peers: "p95 \(Figure.micros(Stats.percentile(times, 0.95)))", target: "≤ 100 µs",
                        met: settings.quick ? nil : median <= 100e-6 && failures == 0,
                        values: ["median_s": median, "scripts": Double(count), "failed": Double(failures)])
    }
}
