import Foundation
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopScripts

/// Runs the JavaScript of a run's `.http` requests (JetBrains HTTP Client API) for a
/// `RequestListRunner`: a request's pre-request scripts before it is resolved, its response
/// handlers once its response has arrived. One `ScriptRuntime` for the run, so `client.global`
/// values carry from one request to the next; after each script they are handed to the
/// resolvers (`ScriptVariables`).
struct RequestScripts: Sendable {
    let runtime: ScriptRuntime
    let variables: ScriptVariables

    init(timeLimit: Double) {
        let runtime = ScriptRuntime(timeLimit: timeLimit)
        self.runtime = runtime
        variables = ScriptVariables { expression, scope in
            runtime.evaluate(expression: expression, variables: scope).mapError { ScriptVariables.ExpressionError(message: $0.message) }
        }
    }

    /// Whether a list has JavaScript to run: scripts, or httpyac `{{ expressions }}`.
    static func has(_ list: RequestList) -> Bool { list.hasJavaScript }

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
        let scripts = spec.scripts.filter { $0.kind == .preRequest && $0.isJavaScript }
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
    func runHandlers(at index: Int, of resolver: RequestResolver, request: HTTPRequest, response: HTTPResponseHead, body: Data?) -> Report {
        let spec = resolver.list.specs[index]
        let scripts = spec.scripts.filter { $0.kind == .responseHandler && $0.isJavaScript }
        guard !scripts.isEmpty else { return Report() }
        var report = Report()
        let text = body.map { String(decoding: $0, as: UTF8.self) }
        let input = ScriptInput(request: self.input(spec, resolved: request),
                                response: ScriptInput.Response(status: response.status, headers: response.headers, body: text),
                                environment: resolver.variables.environment)
        for script in scripts {
            let outcome = run(script, of: resolver.list, input: input, into: &report)
            if report.error != nil || outcome.exited { break }
        }
        return report
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
        let outcome = runtime.run(source, with: input)
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
        let directory = (list.sourcePath as NSString).deletingLastPathComponent
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
