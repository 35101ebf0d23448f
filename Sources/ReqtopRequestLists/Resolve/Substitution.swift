import FoundationEssentials

/// The outcome of a named request, as recorded by the runner.
enum RecordedOutcome: Sendable {
    case response(RecordedResponse)
    case failed(String)
}

/// Substitutes `{{…}}` placeholders for one spec.
struct Substitution {
    let list: RequestList
    let variables: VariableContext
    let fileVariables: FileVariableScope
    let locator: VariableLocator
    /// Outcomes of finished requests, by index; nil while validating (references are only checked).
    let outcomes: [Int: RecordedOutcome]?
    let specIndex: Int?
    /// The indices of the requests of each name, in list order.
    let indicesByName: [String: [Int]]
    /// Leave `{{name.response…}}` references as they are (for writing a list that cannot run them).
    var keepsResponseReferences = false
    /// What scripts have set, when the list's scripts run (nil: they do not, `--no-scripts`, `convert`).
    var scriptGlobals: [String: String]?
    /// Evaluates httpyac `{{ expressions }}` when the list's scripts run.
    var evaluate: (@Sendable (String, [String: String]) -> Result<String, ScriptVariables.ExpressionError>)?
    /// The request's own variables, from its pre-request script.
    var requestVariables: [String: String] = [:]

    /// No expansion grows past this many bytes or expands more than this many references: variables
    /// that double each other (`@v2 = {{v1}}{{v1}}`, thirty deep) would otherwise take minutes and
    /// gigabytes before anything is sent.
    static let maxExpansionBytes = 16 << 20
    static let maxExpandedReferences = 100_000

    /// How many references one top-level substitution has expanded so far, and the environment
    /// variables being expanded (an environment value may use other variables: `"base": "{{host}}/v1"`).
    private final class Budget {
        var references = 0
        var environmentStack: [String] = []
    }

    func substitute(_ text: String) throws(RequestListError) -> String {
        try substitute(text, variable: nil, stack: [])
    }

    /// `stack`: the file-variable definitions being expanded (a definition, not a name, repeats in a
    /// cycle: `@url = {{url}}/v2` uses the `@url` above it).
    func substitute(_ text: String, variable: FileVariable?, stack: [FileVariable]) throws(RequestListError) -> String {
        guard text.containsTemplateOpening else { return text }
        return try substitute(text, variable: variable, stack: stack, budget: Budget())
    }

    private func substitute(_ text: String, variable: FileVariable?, stack: [FileVariable], budget: Budget) throws(RequestListError) -> String {
        guard text.containsTemplateOpening else { return text }
        let template: Template
        do {
            template = try Template.parse(text)
        } catch {
            throw locator.error(error.message, name: "", spec: specIndex, variable: variable)
        }
        var out = ""
        for part in template.parts {
            switch part {
            case let .literal(s): out += s
            case let .variable(name, _):
                budget.references += 1
                if budget.references > Self.maxExpandedReferences {
                    throw locator.error("the expansion takes more than \(Self.maxExpandedReferences) variable references (variables that repeat each other?)",
                                        name: name, spec: specIndex, variable: variable)
                }
                out += try value(of: name, variable: variable, stack: stack, budget: budget)
            }
            if out.utf8.count > Self.maxExpansionBytes {
                throw locator.error("the expansion passes \(Self.maxExpansionBytes >> 20) MB (variables that repeat each other?)",
                                    name: "", spec: specIndex, variable: variable)
            }
        }
        return out
    }

    private func value(of name: String, variable: FileVariable?, stack: [FileVariable], budget: Budget) throws(RequestListError) -> String {
        let reference: VariableReference
        do {
            reference = try VariableReference.parse(name)
        } catch {
            throw locator.error(error.message, name: name, spec: specIndex, variable: variable)
        }
        switch reference {
        case let .expression(code):
            if keepsResponseReferences { return "{{\(name)}}" } // known only when the list runs
            guard let evaluate, let globals = scriptGlobals else {
                var error = locator.error("{{\(name)}} is an expression (httpyac evaluates JavaScript in {{ }}); it is evaluated only "
                                          + "when the list's scripts run", name: name, spec: specIndex, variable: variable)
                error.needsRequestScript = true
                throw error
            }
            // The variables it may name: the environment's, the scripts' globals, `--var` (as httpyac has them in scope).
            let scope = variables.environment.merging(globals) { $1 }.merging(variables.commandLine) { $1 }
            switch evaluate(code.trimmingWhitespace(), scope) {
            case .success(let value): return value
            case .failure(let failure):
                // Like a script that throws: its request is not sent, the rest of the list runs.
                var error = locator.error("{{\(name)}}: \(failure.message)", name: name, spec: specIndex, variable: variable)
                error.needsRequestScript = true
                throw error
            }
        case let .otherClient(why):
            var error = locator.error("{{\(name)}} \(why)", name: name, spec: specIndex, variable: variable)
            error.needsRequestScript = true
            throw error
        case let .dynamic(dynamic):
            let directory = list.sourcePath.deletingLastPathComponent
            guard let value = dynamic.generate(directory: directory.isEmpty ? "." : directory) else {
                throw locator.error("{{\(name)}}: the environment variable (or .env entry) it names is not set", name: name,
                                    spec: specIndex, variable: variable)
            }
            return value
        case let .response(ref):
            if keepsResponseReferences { return "{{\(name)}}" }
            return try responseValue(ref, name: name, variable: variable)
        case let .named(key):
            if let value = variables.commandLine[key] { return value } // --var wins over everything
            // The request's own pre-request script sets a variable after everything else is read.
            if scriptGlobals == nil, let specIndex,
               let script = list.specs[specIndex].scripts.first(where: { $0.kind == .preRequest && $0.setVariables.contains(key) }) {
                if keepsResponseReferences { return "{{\(name)}}" } // known only when the list runs
                var error = locator.error("needs {{\(key)}}, which its own pre-request script skipped at \(script.location) sets "
                                          + "(reqtop does not run scripts)", name: name, spec: specIndex, variable: variable)
                error.needsRequestScript = true
                throw error
            }
            if let value = variables.environment[key] {
                // Its own `{{…}}` are read too, as VS Code REST Client does (they were sent as written).
                guard value.containsTemplateOpening else { return value }
                if budget.environmentStack.contains(key) {
                    let cycle = (budget.environmentStack + [key]).joined(separator: " → ")
                    throw locator.error("environment variable \(quoting: key) refers to itself (\(cycle))", name: name, spec: specIndex, variable: variable)
                }
                budget.environmentStack.append(key)
                defer { budget.environmentStack.removeLast() }
                do {
                    return try substitute(value, variable: variable, stack: stack, budget: budget)
                } catch where budget.environmentStack.count == 1 && !error.message.hasPrefix("environment variable") {
                    // Said at the reference the request makes, naming the value it came through.
                    var wrapped = locator.error("environment variable \(quoting: key): \(error.message)", name: name, spec: specIndex, variable: variable)
                    wrapped.needsRequestScript = error.needsRequestScript
                    throw wrapped
                }
            }
            if let value = scriptGlobals?[key] { return value } // client.global, below the environment
            if let fileVariable = fileVariables.variable(named: key, seenFromLine: referenceLine(in: variable)) {
                if stack.contains(where: { $0.location == fileVariable.location }) {
                    let cycle = (stack + [fileVariable]).map(\.name).joined(separator: " → ")
                    throw locator.error("variable \(quoting: key) refers to itself (\(cycle))", name: key, spec: nil, variable: fileVariable)
                }
                return try substitute(fileVariable.value, variable: fileVariable, stack: stack + [fileVariable], budget: budget)
            }
            if let dot = key.firstIndex(of: "."), case let request = String(key[..<dot]), indicesByName[request] != nil {
                // httpyac's shorthand for a response: `{{login.token}}`.
                let path = key[key.index(after: dot)...]
                throw locator.error("\(quoting: key) reads the response of \(quoting: request) in httpyac's shorthand; reqtop reads "
                                    + "{{\(request).response.body.$.\(path)}} (VS Code REST Client and JetBrains syntax)",
                                    name: name, spec: specIndex, variable: variable)
            }
            if let value = requestVariables[key] { return value } // request.variables, the lowest
            if let capture = list.capture(setting: key) {
                if keepsResponseReferences { return "{{\(name)}}" } // known only when the list runs
                let why = scriptGlobals == nil ? "which only the capture at \(capture.location) sets (captured when the list runs)"
                    : "which the capture at \(capture.location) sets, but it had not been taken when this request's turn came"
                var error = locator.error("needs {{\(key)}}, \(why)", name: name, spec: specIndex, variable: variable)
                error.needsRequestScript = true
                throw error
            }
            if let script = list.allScripts.first(where: { $0.setVariables.contains(key) }) {
                if keepsResponseReferences { return "{{\(name)}}" } // known only when the list runs
                let why = scriptGlobals == nil ? "which only the script skipped at \(script.location) sets (scripts are not run here)"
                    : "which the script at \(script.location) sets, but it had not set it when this request's turn came"
                var error = locator.error("needs {{\(key)}}, \(why)", name: name, spec: specIndex, variable: variable)
                error.needsRequestScript = true
                throw error
            }
            if let script = list.allScripts.first(where: { $0.isJavaScript && ($0.inFile || Self.namesAFile($0.source)) }) {
                // A script in a file reqtop does not read may be what sets it.
                if keepsResponseReferences { return "{{\(name)}}" }
                let what = scriptGlobals == nil ? "skipped at \(script.location) may set it" : "at \(script.location) may set it, but had not"
                var error = locator.error("needs {{\(key)}}, which is defined nowhere reqtop reads; the script file "
                                          + "\(quoting: script.source) \(what)", name: name, spec: specIndex, variable: variable)
                error.needsRequestScript = true
                throw error
            }
            if let hint = list.variableHint {
                throw locator.error("unknown variable \(quoting: key): " + hint.replacingEvery("NAME", with: key), name: name, spec: specIndex, variable: variable)
            }
            var message = "unknown variable \(quoting: key): define it with '@\(key) = …', in \(Environments.publicFileName)"
            if let env = variables.environmentName { message += " (environment \(quoting: env))" }
            message += ", or with --var \(key)=…"
            if variables.environmentName == nil, case let environments = Environments.defining(key, besides: list.sourcePath), !environments.isEmpty {
                let folder = Environments.folder(of: list.sourcePath)
                let file = folder == (list.sourcePath.deletingLastPathComponent.isEmpty ? "." : list.sourcePath.deletingLastPathComponent)
                    ? "the env file beside the list" : folder.appendingPathComponent(Environments.publicFileName)
                message += " (\(file) defines it: " + environments.map { "--env \($0)" }.joined(separator: ", ") + ")"
            }
            throw locator.error(message, name: name, spec: specIndex, variable: variable)
        }
    }

    /// Whether a skipped script's source is the file it names (`> ./handler.js`), not inline code
    /// (`$global.token = 1`): one word, nothing a statement has.
    static func namesAFile(_ source: String) -> Bool {
        let text = source.trimmingWhitespace()
        return !text.isEmpty && !text.utf8.contains { [0x20, 0x09, 0x0A, 0x28, 0x3D, 0x3B, 0x7B].contains($0) } // space tab LF ( = ; {
    }

    /// The line a reference is written on: the file variable's it is in, else the request's.
    private func referenceLine(in variable: FileVariable?) -> Int? {
        if let variable { return variable.location.line }
        return specIndex.flatMap { list.specs[$0].location?.line }
    }

    private func responseValue(_ ref: ResponseReference, name: String, variable: FileVariable?) throws(RequestListError) -> String {
        guard let indices = indicesByName[ref.requestName], let producer = RequestResolver.producer(indices, before: specIndex) else {
            let why = indicesByName[ref.requestName] != nil ? "a request cannot use its own response"
                : "there is no request named \(quoting: ref.requestName) (name one with '# @name \(ref.requestName)')"
            throw locator.error("invalid reference {{\(name)}}: \(why)", name: name, spec: specIndex, variable: variable)
        }
        guard let outcomes else { return "" }
        let who = specIndex.flatMap { list.specs[$0].name }.map { "'\($0)'" } ?? "this request"
        // A name used more than once: say which of its requests (by line) the reference reads.
        let producerName = indices.count < 2 ? "\(quoting: ref.requestName)"
            : "\(quoting: ref.requestName) (line \(list.specs[producer].location.map { String($0.line) } ?? "?"))"
        switch outcomes[producer] {
        case nil:
            throw locator.error("\(who) uses the response of \(producerName), which has not completed yet; run it first",
                                name: name, spec: specIndex, variable: variable)
        case let .failed(reason):
            throw locator.error("\(who) uses the response of \(producerName), which failed (\(reason))",
                                name: name, spec: specIndex, variable: variable)
        case let .response(response):
            do {
                return try ResponseExtractor.extract(ref, from: response)
            } catch {
                throw locator.error(error.message, name: name, spec: specIndex, variable: variable)
            }
        }
    }
}
