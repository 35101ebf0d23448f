import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopScripts
import ReqtopSync

/// Runs the JavaScript of a run's `.http` requests (JetBrains HTTP Client API) for a
/// `RequestListRunner`: a request's pre-request scripts before it is resolved, its response
/// handlers once its response has arrived. One `ScriptRuntime` for the run, so `client.global`
/// values carry from one request to the next; after each script they are handed to the
/// resolvers (`ScriptVariables`). A request's response checks (Hurl's status, captures and
/// asserts) run here too, natively, after its handlers: captures are globals like the scripts'.
struct RequestScripts: Sendable {
    let engine: LazyScriptRuntime
    let variables: ScriptVariables
    /// False with `--no-scripts`: only response checks run.
    let runsJavaScript: Bool

    init(timeLimit: Double, runsJavaScript: Bool = true) {
        let engine = LazyScriptRuntime(timeLimit: timeLimit)
        self.engine = engine
        self.runsJavaScript = runsJavaScript
        variables = ScriptVariables { expression, scope in
            engine.runtime(globals: [:]).evaluate(expression: expression, variables: scope)
                .mapError { ScriptVariables.ExpressionError(message: $0.message) }
        }
    }

    /// What the scripts of one request did: events for its task (posted once it has one) and the
    /// error of the script that failed, which stops the scripts after it.
    struct Report: Sendable {
        var events: [(time: Double, kind: TaskEvent.Kind)] = []
        var tests: [TestResult] = []
        var error: ScriptError?
        /// Header fields pre-request scripts added (`pm.request.headers.add`), sent after the request's own.
        var addedHeaders: [HTTPHeader] = []
    }

    /// Runs the pre-request scripts of the request at `index` (`request.variables` it sets are its own).
    func runPreRequest(at index: Int, of resolver: RequestResolver) -> Report {
        let spec = resolver.list.specs[index]
        let scripts = runsJavaScript ? spec.scripts.filter { $0.kind == .preRequest && $0.isJavaScript } : []
        guard !scripts.isEmpty else { return Report() }
        var report = Report()
        var own: [String: String] = [:]
        for script in scripts {
            // What the request looks like so far (a value only this script sets is still `{{…}}`).
            let request = input(spec, resolved: try? resolver.resolve(index))
            let outcome = run(script, of: resolver.list, input: ScriptInput(request: request, environment: resolver.variables.environment),
                              into: &report)
            own.merge(outcome.requestVariables) { $1 }
            resolver.setRequestVariables(own, forRequestAt: index)
            report.addedHeaders += outcome.addedHeaders
            if report.error != nil || outcome.exited { break }
        }
        return report
    }

    /// Runs the response handlers of the request at `index`, sent as `request`, with its response.
    func runHandlers(at index: Int, of resolver: RequestResolver, request: HTTPRequest, response: HTTPResponseHead, body: Data?,
                     durationMilliseconds: Double? = nil) -> Report {
        let spec = resolver.list.specs[index]
        let scripts = runsJavaScript ? spec.scripts.filter { $0.kind == .responseHandler && $0.isJavaScript } : []
        var report = Report()
        if !scripts.isEmpty {
            let text = body.map { String(decoding: $0, as: UTF8.self) }
            let input = ScriptInput(request: self.input(spec, resolved: request),
                                    response: ScriptInput.Response(status: response.status, headers: response.headers, body: text),
                                    environment: resolver.variables.environment)
            for script in scripts {
                let outcome = run(script, of: resolver.list, input: input, into: &report)
                if report.error != nil || outcome.exited { break }
            }
        }
        if report.error == nil, let checks = spec.checks {
            runChecks(checks, at: index, of: resolver, response: response, body: body, durationMilliseconds: durationMilliseconds, into: &report)
        }
        return report
    }

    /// The checks of a response: its captures first (set as globals; one that cannot be taken fails
    /// the request, located), then every check as a test.
    private func runChecks(_ checks: ResponseChecks, at index: Int, of resolver: RequestResolver, response: HTTPResponseHead, body: Data?,
                           durationMilliseconds: Double?, into report: inout Report) {
        let checked = CheckedResponse(status: response.status, httpVersion: response.httpVersion, url: response.url.absoluteString,
                                      headers: response.headers, body: body ?? Data(), durationMilliseconds: durationMilliseconds)
        let substitute: (String) throws -> String = { try resolver.substitute($0, forRequestAt: index) }
        let captured = checks.capture(checked, substitute: substitute)
        if !captured.values.isEmpty {
            var globals = variables.global
            for (name, value) in captured.values { globals[name] = value.text }
            variables.setGlobal(globals)
            engine.ifCreated?.setGlobals(globals)
        }
        let now = Date().timeIntervalSince1970
        if let failure = captured.failure {
            let error = ScriptError(message: failure.message, file: failure.location.file, line: failure.location.line, column: failure.location.column)
            report.error = error
            report.events.append((now, .scriptLog(ScriptLog(level: .error, text: error.description))))
            return
        }
        for test in checks.test(checked, substitute: substitute) {
            report.tests.append(test)
            report.events.append((now, .test(test)))
        }
    }

    private func run(_ script: RequestScript, of list: RequestList, input: ScriptInput, into report: inout Report) -> ScriptOutcome {
        let source: Script
        do {
            source = try Self.source(of: script, in: list)
        } catch {
            report.error = error
            report.events.append((Date().timeIntervalSince1970, .scriptLog(ScriptLog(level: .error, text: error.description))))
            return ScriptOutcome()
        }
        let outcome = engine.runtime(globals: variables.global).run(source, with: input)
        variables.setGlobal(outcome.globals)
        let now = Date().timeIntervalSince1970
        for line in outcome.logs { report.events.append((now, .scriptLog(ScriptLog(level: .log, text: line)))) }
        for test in outcome.tests {
            report.tests.append(test)
            report.events.append((now, .test(test)))
        }
        if let error = outcome.error {
            report.error = error
            report.events.append((now, .scriptLog(ScriptLog(level: .error, text: error.description))))
        }
        return outcome
    }

    /// The script's text, from the list or from its file (relative to the list, a BOM dropped).
    static func source(of script: RequestScript, in list: RequestList) throws(ScriptError) -> Script {
        let location = script.location
        guard script.inFile else { return Script(source: script.source, file: location.file, line: location.line, column: location.column) }
        let directory = list.sourcePath.deletingLastPathComponent
        let path = RequestBody.absolutePath(script.source, relativeTo: directory.isEmpty ? "." : directory)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScriptError(message: "cannot read the script file \(script.source) (\(path))", file: location.file, line: location.line,
                              column: location.column)
        }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return Script(source: text, file: path, line: 1, column: 1)
    }

    /// The request as scripts see it: as written and as substituted (as written where it did not resolve).
    private func input(_ spec: RequestSpec, resolved: HTTPRequest?) -> ScriptInput.Request {
        let rawBody: String = switch spec.body {
        case .text(let text)?: text
        default: ""
        }
        let body = resolved?.body.data.map { String(decoding: $0, as: UTF8.self) } ?? rawBody
        var headers: [(name: String, raw: String, value: String)] = []
        for (offset, header) in spec.headers.enumerated() {
            let value = resolved.flatMap { $0.headers.indices.contains(offset) ? $0.headers[offset].value : nil } ?? header.value
            headers.append((header.name, header.value, value))
        }
        return ScriptInput.Request(method: resolved?.method ?? spec.method, rawURL: spec.url, url: resolved?.url.absoluteString ?? spec.url,
                                   headers: headers, rawBody: rawBody, body: body)
    }
}

/// The run's JavaScript context, made when something first needs it (a Hurl list has no script to
/// run), starting from the globals captures have set by then.
final class LazyScriptRuntime: Sendable {
    private let timeLimit: Double
    private let made = Protected<ScriptRuntime?>(nil)

    init(timeLimit: Double) {
        self.timeLimit = timeLimit
    }

    /// The context; made now with `globals` if it was not yet.
    func runtime(globals: [String: String]) -> ScriptRuntime {
        made.withLock { made in
            if let made { return made }
            let runtime = ScriptRuntime(timeLimit: timeLimit)
            if !globals.isEmpty { runtime.setGlobals(globals) }
            made = runtime
            return runtime
        }
    }

    /// The context, if something has needed it.
    var ifCreated: ScriptRuntime? { made.snapshot }
}
