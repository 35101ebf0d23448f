/// Which requests of a list wait for the responses of which others (through file and environment
/// variables too), for validation, cycle checks and the runner.
extension RequestResolver {
    /// Names of the requests whose responses the spec at `index` uses (through file variables too).
    public func dependencies(of index: Int) -> Set<String> {
        guard list.specs.indices.contains(index), !list.specs.resolvesAsWritten(index) else { return [] }
        return dependencies(of: index, spec: list.specs[index])
    }

    /// The indices of the requests whose responses the spec at `index` reads: for each name it
    /// references, the nearest request of that name before it (see `producer(_:before:)`).
    public func producers(of index: Int) -> Set<Int> {
        producers(of: index, names: dependencies(of: index))
    }

    func producers(of index: Int, names: Set<String>) -> Set<Int> {
        Set(names.compactMap { name in indicesByName[name].flatMap { Self.producer($0, before: index) } })
    }

    /// `producers(of:)` of every request that reads some response, by index (one read of the list;
    /// the requests a long list knows resolve as written are not read at all).
    public func requestsWithProducers() -> [Int: Set<Int>] {
        guard substitutesVariables else { return [:] }
        var found: [Int: Set<Int>] = [:]
        for index in list.specs.indices where !list.specs.resolvesAsWritten(index) {
            let names = dependencies(of: index, spec: list.specs[index])
            if !names.isEmpty { found[index] = producers(of: index, names: names) }
        }
        return found
    }

    /// `dependencies(of:)` for the spec at `index` when it has been read already.
    func dependencies(of index: Int, spec: RequestSpec) -> Set<String> {
        guard substitutesVariables, Self.hasTemplates(spec) || readsFileWithVariables(spec) else { return [] }
        if let cached = dependencyCache.withLock({ $0[index] }) { return cached }
        let found = findDependencies(of: index, spec: spec)
        dependencyCache.withLock { $0[index] = found }
        return found
    }

    func findDependencies(of index: Int, spec: RequestSpec) -> Set<String> {
        var names: Set<String> = []
        var visited: Set<SourceLocation> = []
        var visitedEnvironment: Set<String> = []
        // Each template with the line it is written on (file variables are positional).
        let specLine = spec.location?.line
        var pending = (Self.templates(of: spec) + substitutedFileTexts(of: spec)).map { (text: $0, line: specLine) }
        while let (text, line) = pending.popLast() {
            guard let template = try? Template.parse(text) else { continue }
            for name in template.variableNames {
                switch try? VariableReference.parse(name) {
                case let .response(ref)?: names.insert(ref.requestName)
                case let .named(key)?:
                    if variables.commandLine[key] != nil { continue }
                    if let value = variables.environment[key] {
                        // An environment value's own `{{…}}` are read too (`"auth": "Bearer {{token}}"`).
                        if value.containsTemplateOpening, visitedEnvironment.insert(key).inserted { pending.append((value, line)) }
                    } else if let variable = fileVariables.variable(named: key, seenFromLine: line),
                              visited.insert(variable.location).inserted {
                        pending.append((variable.value, variable.location.line))
                    }
                default: break
                }
            }
        }
        return names
    }

    /// The requests before the one at `index` whose scripts may set a variable it uses that nothing
    /// else defines (no `--var`, environment or `@` variable): it waits for them, so their handlers
    /// have run when its turn comes. Empty when scripts do not run.
    public func scriptProducers(of index: Int) -> Set<Int> {
        guard scriptVariables != nil, substitutesVariables, list.specs.indices.contains(index), !list.specs.resolvesAsWritten(index) else { return [] }
        let spec = list.specs[index]
        guard Self.hasTemplates(spec) || readsFileWithVariables(spec) else { return [] }
        var undefined: Set<String> = []
        var visitedEnvironment: Set<String> = []
        var visited: Set<SourceLocation> = []
        var pending = (Self.templates(of: spec) + substitutedFileTexts(of: spec)).map { (text: $0, line: spec.location?.line) }
        while let (text, line) = pending.popLast() {
            guard let template = try? Template.parse(text) else { continue }
            for name in template.variableNames {
                guard case let .named(key)? = try? VariableReference.parse(name), variables.commandLine[key] == nil else { continue }
                if let value = variables.environment[key] {
                    if value.containsTemplateOpening, visitedEnvironment.insert(key).inserted { pending.append((value, line)) }
                } else if let variable = fileVariables.variable(named: key, seenFromLine: line) {
                    if visited.insert(variable.location).inserted { pending.append((variable.value, variable.location.line)) }
                } else {
                    undefined.insert(key)
                }
            }
        }
        guard !undefined.isEmpty else { return [] }
        return Set(list.specs.indices.prefix(index).filter { earlier in
            let spec = list.specs[earlier]
            return spec.scripts.contains { $0.isJavaScript && ($0.inFile || !undefined.isDisjoint(with: $0.setVariables)) }
                || !(spec.checks?.capturedNames ?? []).allSatisfy { !undefined.contains($0) }
        })
    }

    /// `scriptProducers(of:)` of every request that waits for some.
    public func requestsWithScriptProducers() -> [Int: Set<Int>] {
        guard scriptVariables != nil, list.setsVariablesWhenRun else { return [:] }
        var found: [Int: Set<Int>] = [:]
        for index in list.specs.indices {
            let producers = scriptProducers(of: index)
            if !producers.isEmpty { found[index] = producers }
        }
        return found
    }
}
