import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads an Insomnia v4 export (JSON, or YAML through `YAMLReader`) as a request list that resolves as a `.http` list does:
/// requests in the workspace's order (folders first-to-last by their sort keys, a folder's requests
/// named `Folder / Request`), the base environment's values and then the first sub-environment's as
/// the list's variables (below `--env` and `--var`), headers and query parameters (disabled ones left
/// out), `basic` and `bearer` auth, and bodies as text, URL-encoded or multipart forms. Insomnia's
/// template tags (`{% response … %}`, `{% faker … %}`) are not run: each is named with its request.
enum InsomniaImporter {
    /// Whether `json` is an Insomnia export of format 4.
    static func isExport(_ json: JSONValue) -> Bool {
        // (Some YAML exports say `type: export`, without the underscore.)
        guard case .object = json, (json["_type"] ?? json["type"])?.stringValue == "export", json["resources"] != nil else { return false }
        if case .number(let format)? = json["__export_format"] { return format == "4" }
        return false
    }

    /// Insomnia's `{{ _.name }}` (the environment's `name`) as the list's `{{name}}`.
    static func plainTemplates(_ text: String) -> String {
        guard text.containsBytes("_.") else { return text }
        return text.replacing(#/\{\{\s*_\.([^{}\s]+)\s*\}\}/#.matchingSemantics(.unicodeScalar)) { "{{\($0.1)}}" }
    }

    static func plainTemplates(_ spec: RequestSpec) -> RequestSpec {
        var spec = spec
        spec.url = plainTemplates(spec.url)
        spec.headers = spec.headers.map { HTTPHeader(name: plainTemplates($0.name), value: plainTemplates($0.value)) }
        switch spec.body {
        case .text(let text)?: spec.body = .text(plainTemplates(text))
        case .form(let fields)?: spec.body = .form(fields.map { FormField(name: plainTemplates($0.name), value: plainTemplates($0.value)) })
        case .parts(let parts)?:
            spec.body = .parts(parts.map { if case .text(let text) = $0 { .text(plainTemplates(text)) } else { $0 } })
        default: break
        }
        return spec
    }

    /// Whether `text` starts as an Insomnia YAML export does (`_type: export` in its first lines).
    static func isYAMLExport(_ text: String) -> Bool {
        text.prefix(2048).split(whereSeparator: \.isNewline).prefix(8).contains { $0 == "_type: export" || $0 == "type: export" }
            && text.prefix(2048).containsBytes("__export_format: 4")
    }

    /// Reads a YAML export; a YAML error is located in the file.
    static func parseYAML(text: String, path: String) throws(RequestListError) -> RequestList {
        let json: LocatedJSON
        do {
            json = try YAMLReader.parse(text)
        } catch {
            let lines = text.splitLines()
            throw RequestListError(file: path, line: error.line, column: error.column, message: "not an Insomnia YAML export: \(error.message)",
                                   lineText: error.line >= 1 && error.line <= lines.count ? lines[error.line - 1] : "")
        }
        guard isExport(json.value) else {
            throw RequestListError(file: path, line: 1, column: 1, message: "not an Insomnia export of format 4 (no resources list)", lineText: "")
        }
        return parse(json, text: text, path: path)
    }

    static func parse(_ json: LocatedJSON, text: String, path: String) -> RequestList {
        let resources = json["resources"]?.children ?? []
        var byParent: [String: [LocatedJSON]] = [:]
        for resource in resources {
            byParent[resource["parentId"]?.value.stringValue ?? "", default: []].append(resource)
        }
        func sortKey(_ node: LocatedJSON) -> Double {
            if case .number(let text)? = node["metaSortKey"]?.value { return Double(text) ?? 0 }
            return 0
        }
        var state = State(path: path)
        let workspaces = resources.filter { $0["_type"]?.value.stringValue == "workspace" }
        for workspace in workspaces {
            let id = workspace["_id"]?.value.stringValue ?? ""
            state.environments(byParent[id] ?? [], byParent: byParent)
            state.walk(id, folder: [], byParent: byParent, sortKey: sortKey)
        }
        var list = RequestList(specs: RequestSpecs(state.specs), fileVariables: state.variables, sourcePath: path, format: .http,
                               warnings: state.warnings, sourceText: text)
        list.schemeless = .http
        list.variableHint = "give it in the export's environment, or with --var NAME=… (a folder's own environment is not read)"
        return list
    }

    private struct State: ExportedListReader {
        let path: String
        var specs: [RequestSpec] = []
        var variables: [FileVariable] = []
        var warnings: [RequestListWarning] = []

        /// The base environment's values, then the first sub-environment's over them (Insomnia's active
        /// environment is not in the export: which one was used is said).
        mutating func environments(_ children: [LocatedJSON], byParent: [String: [LocatedJSON]]) {
            guard let base = children.first(where: { $0["_type"]?.value.stringValue == "environment" }) else { return }
            var values: [(name: String, value: String, node: LocatedJSON)] = []
            add(base["data"], to: &values)
            let subs = (byParent[base["_id"]?.value.stringValue ?? ""] ?? []).filter { $0["_type"]?.value.stringValue == "environment" }
            if let sub = subs.first {
                add(sub["data"], to: &values)
                if subs.count > 1 {
                    let names = subs.compactMap { $0["name"]?.value.stringValue }
                    warn(sub, "the export has \(subs.count) sub-environments (\(names.joined(separator: ", "))): the first, "
                         + "\(quoting: names.first ?? "?"), is used; --var NAME=VALUE sets another value")
                }
            }
            // One definition per name, where the value that wins is written.
            variables += values.map { FileVariable(name: $0.name, value: InsomniaImporter.plainTemplates($0.value), location: location($0.node)) }
        }

        /// The environment's values over those already there (a sub-environment's over the base's).
        func add(_ data: LocatedJSON?, to values: inout [(name: String, value: String, node: LocatedJSON)]) {
            guard let data, case .object(let members) = data.value else { return }
            for (member, node) in zip(members, data.children) {
                // A nested object's values are `{{ _.outer.inner }}`: one variable each, named with dots.
                if case .object = member.value {
                    var nested: [(name: String, value: String, node: LocatedJSON)] = []
                    add(node, to: &nested)
                    for entry in nested { set((member.key + "." + entry.name, entry.value, entry.node), in: &values) }
                    continue
                }
                set((member.key, member.value.substitutionText, node), in: &values)
            }
        }

        func set(_ entry: (name: String, value: String, node: LocatedJSON), in values: inout [(name: String, value: String, node: LocatedJSON)]) {
            if let index = values.firstIndex(where: { $0.name == entry.name }) { values[index] = entry } else { values.append(entry) }
        }

        mutating func walk(_ parent: String, folder: [String], byParent: [String: [LocatedJSON]], sortKey: (LocatedJSON) -> Double) {
            let children = (byParent[parent] ?? []).enumerated().sorted { a, b in
                let (ka, kb) = (sortKey(a.element), sortKey(b.element))
                return ka == kb ? a.offset < b.offset : ka < kb
            }.map(\.element)
            for child in children {
                let name = child["name"]?.value.stringValue ?? ""
                switch child["_type"]?.value.stringValue {
                case "request_group"?:
                    walk(child["_id"]?.value.stringValue ?? "", folder: folder + [name], byParent: byParent, sortKey: sortKey)
                case "request"?:
                    request(child, name: (folder + [name]).joined(separator: " / "))
                default:
                    break
                }
            }
        }

        mutating func request(_ node: LocatedJSON, name: String) {
            func enabled(_ list: LocatedJSON?) -> [(String, String)] {
                (list?.children ?? []).filter { $0["disabled"]?.value != .bool(true) }.compactMap { entry in
                    guard let key = entry["name"]?.value.stringValue, !key.isEmpty else { return nil }
                    return (key, entry["value"]?.value.substitutionText ?? "")
                }
            }
            var url = node["url"]?.value.stringValue ?? ""
            if url.trimmingWhitespace().isEmpty {
                warn(node, "request \(quoting: name) skipped: its URL is empty")
                return
            }
            let query = enabled(node["parameters"])
            if !query.isEmpty { url += (url.containsBytes("?") ? "&" : "?") + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&") }
            var headers = enabled(node["headers"]).map { HTTPHeader(name: $0.0, value: $0.1) }
            authenticate(node["authentication"], headers: &headers, name: name)
            var spec = RequestSpec(name: name, method: node["method"]?.value.stringValue?.uppercased() ?? "GET", url: url, headers: headers,
                                   location: location(node))
            spec.body = body(node["body"], headers: &spec.headers)
            let texts = [url] + spec.headers.map(\.value) + [{ if case .text(let t)? = spec.body { t } else { "" } }()]
            if texts.contains(where: { $0.containsBytes("{%") }) {
                warn(node, "request \(quoting: name): Insomnia template tags ({% … %}) are not run; they are sent as written")
            }
            specs.append(InsomniaImporter.plainTemplates(spec))
        }

        mutating func authenticate(_ auth: LocatedJSON?, headers: inout [HTTPHeader], name: String) {
            guard let auth, auth["disabled"]?.value != .bool(true), let type = auth["type"]?.value.stringValue else { return }
            guard !headers.contains(where: { HTTPHeader.namesMatch($0.name, "Authorization") }) else { return }
            switch type {
            case "basic":
                let user = auth["username"]?.value.substitutionText ?? ""
                let password = auth["password"]?.value.substitutionText ?? ""
                headers.append(HTTPHeader(name: "Authorization", value: "Basic \(user) \(password)")) // encoded after substitution
            case "bearer":
                let prefix = auth["prefix"]?.value.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "Bearer"
                headers.append(HTTPHeader(name: "Authorization", value: "\(prefix) \(auth["token"]?.value.substitutionText ?? "")"))
            default:
                warn(auth, "request \(quoting: name): its \(type) authentication is not applied (reqtop applies basic and bearer); sent without it")
            }
        }

        mutating func body(_ body: LocatedJSON?, headers: inout [HTTPHeader]) -> RequestBody? {
            guard let body, case .object = body.value else { return nil }
            let mimeType = body["mimeType"]?.value.stringValue ?? ""
            func setContentType(_ value: String) { Self.addContentType(value, to: &headers) }
            if let text = body["text"]?.value.stringValue, !text.isEmpty {
                setContentType(mimeType == "application/graphql" ? "application/json" : mimeType)
                return .text(text)
            }
            let params = (body["params"]?.children ?? []).filter { $0["disabled"]?.value != .bool(true) }
            guard !params.isEmpty else { return nil }
            if mimeType == "multipart/form-data" {
                return multipart(params.map { param in
                    ExportedFormField(name: param["name"]?.value.stringValue ?? "", value: param["value"]?.value.substitutionText ?? "",
                                      file: param["type"]?.value.stringValue == "file" ? param["fileName"]?.value.stringValue : nil)
                }, headers: &headers)
            }
            setContentType(mimeType.isEmpty ? "application/x-www-form-urlencoded" : mimeType)
            return .form(params.map { FormField(name: $0["name"]?.value.stringValue ?? "", value: $0["value"]?.value.substitutionText ?? "") })
        }
    }
}
