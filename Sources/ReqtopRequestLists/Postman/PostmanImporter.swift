import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a Postman collection (v2.0 and v2.1 exports) as a request list that resolves as a `.http`
/// list does: `{{variables}}` from the collection's `variable` block (below an environment and
/// `--var`, as Postman ranks them), folders as `Folder / Request` names, `auth` blocks (basic,
/// bearer, API key; inherited from the folder or collection, `noauth` stops it), bodies `raw`,
/// `urlencoded`, `formdata` (text and file parts), `graphql` and `file`; disabled headers, query
/// parameters and fields are left out; `event` scripts run (`pm.*`, in the run's script context:
/// the collection's, then the folder's, then the request's). What reqtop does not do (other auth
/// flows, `pm.sendRequest`) is said per request with its place in the file; the rest runs.
enum PostmanImporter {
    /// Whether `json` is a Postman collection (v2.0 or v2.1).
    static func isCollection(_ json: JSONValue) -> Bool {
        guard case .object = json, json["item"] != nil else { return false }
        // An export without `info` (newman's test collections): items with requests, and no HAR `log`.
        guard let info = json["info"] else {
            guard json["log"] == nil, case .array(let items)? = json["item"] else { return false }
            return items.contains { $0["request"] != nil || $0["item"] != nil }
        }
        let schema = info["schema"]?.stringValue ?? ""
        return schema.containsBytes("getpostman.com") || schema.containsBytes("postman") || info["_postman_id"] != nil
    }

    static func parse(_ json: LocatedJSON, text: String, path: String) -> RequestList {
        var state = State(path: path)
        if let variables = json["variable"] {
            for variable in variables.children where variable["disabled"]?.value != .bool(true) {
                guard let name = variable["key"]?.value.stringValue ?? variable["id"]?.value.stringValue else { continue }
                state.variables.append(FileVariable(name: name, value: variable["value"]?.value.substitutionText ?? "",
                                                    location: state.location(variable)))
            }
        }
        state.walk(json["item"], folder: [], auth: json["auth"], scripts: state.scripts(json["event"]))
        // The JSON's own lines: an error about a `{{variable}}` quotes the line of the file it is on.
        var list = RequestList(specs: RequestSpecs(state.specs), fileVariables: state.variables, sourcePath: path, format: .http,
                               warnings: state.warnings, sourceText: text)
        list.schemeless = .http
        list.variableHint = "give it in the collection's variables, a Postman environment (--env-file FILE), or with --var NAME=…"
        return list
    }

    private struct State: ExportedListReader {
        let path: String
        var specs: [RequestSpec] = []
        var variables: [FileVariable] = []
        var warnings: [RequestListWarning] = []

        /// Items in order: a folder's items get its name, its auth (unless they have their own) and
        /// its scripts (the collection's run first, then the folder's, then the request's, as in Postman).
        mutating func walk(_ items: LocatedJSON?, folder: [String], auth: LocatedJSON?, scripts inherited: [RequestScript]) {
            for item in items?.children ?? [] {
                let name = item["name"]?.value.stringValue ?? ""
                if let children = item["item"] {
                    walk(children, folder: folder + [name], auth: item["auth"] ?? auth, scripts: inherited + scripts(item["event"]))
                } else if let request = item["request"] {
                    self.request(request, item: item, name: (folder + [name]).joined(separator: " / "), auth: request["auth"] ?? auth,
                                 scripts: inherited + scripts(item["event"]))
                }
            }
        }

        /// `event` entries as scripts: `prerequest` before the request, `test` after its response, in
        /// the `pm.*` API; each located at its first `exec` line (errors point into the file).
        func scripts(_ events: LocatedJSON?) -> [RequestScript] {
            (events?.children ?? []).compactMap { event in
                let exec = event["script"]?["exec"]
                let lines = exec.map { $0.value.stringValue.map { [$0] } ?? $0.children.compactMap(\.value.stringValue) } ?? []
                guard lines.contains(where: { !$0.trimmingWhitespace().isEmpty }) else { return nil }
                let kind: RequestScript.Kind
                switch event["listen"]?.value.stringValue {
                case "prerequest"?: kind = .preRequest
                case "test"?: kind = .responseHandler
                default: return nil
                }
                let first = exec?.children.first ?? exec ?? event
                return RequestScript(kind: kind, source: lines.joined(separator: "\n"), location: location(first))
            }
        }

        mutating func request(_ request: LocatedJSON, item: LocatedJSON, name: String, auth: LocatedJSON?, scripts: [RequestScript]) {
            // v2.0/v2.1 allow a bare string as the request (its URL, a GET).
            if let url = request.value.stringValue {
                var spec = RequestSpec(name: name, method: "GET", url: url, location: location(item))
                spec.scripts = scripts
                specs.append(spec)
                return
            }
            let method = request["method"]?.value.stringValue?.uppercased() ?? "GET"
            var url = Self.url(request["url"])
            var headers: [HTTPHeader] = []
            for header in request["header"]?.children ?? [] where header["disabled"]?.value != .bool(true) {
                guard let key = header["key"]?.value.stringValue else { continue }
                headers.append(HTTPHeader(name: key, value: header["value"]?.value.substitutionText ?? ""))
            }
            applyAuth(auth, to: &headers, url: &url, requestName: name)
            var spec = RequestSpec(name: name, method: method, url: url, headers: headers, location: location(item))
            spec.body = body(request["body"], headers: &spec.headers, name: name)
            spec.scripts = scripts
            specs.append(spec)
        }

        /// `url.raw` when there is one, else the URL put together from its parts; disabled query parameters left out.
        static func url(_ node: LocatedJSON?) -> String {
            guard let node else { return "" }
            if let text = node.value.stringValue { return text }
            let disabled = (node["query"]?.children ?? []).filter { $0["disabled"]?.value == .bool(true) }
            if var raw = node["raw"]?.value.stringValue {
                // Postman keeps disabled parameters out of what it sends, and in `raw` too; leave them out if they are there.
                for parameter in disabled {
                    let key = parameter["key"]?.value.stringValue ?? ""
                    let value = parameter["value"]?.value.substitutionText
                    for form in ["&\(key)=\(value ?? "")", "?\(key)=\(value ?? "")&", "?\(key)=\(value ?? "")"] where raw.containsBytes(form) {
                        raw = raw.replacingEvery(form, with: form.hasPrefix("?") && form.hasSuffix("&") ? "?" : "")
                        break
                    }
                }
                return raw
            }
            let scheme = node["protocol"]?.value.stringValue.map { $0 + "://" } ?? ""
            let host = node["host"].map { $0.value.stringValue ?? $0.children.compactMap(\.value.stringValue).joined(separator: ".") } ?? ""
            let port = node["port"]?.value.stringValue.map { ":" + $0 } ?? ""
            let path = node["path"].map { $0.value.stringValue ?? "/" + $0.children.compactMap(\.value.stringValue).joined(separator: "/") } ?? ""
            let query = (node["query"]?.children ?? []).filter { $0["disabled"]?.value != .bool(true) }.map {
                ($0["key"]?.value.stringValue ?? "") + ($0["value"].map { "=" + $0.value.substitutionText } ?? "")
            }
            return scheme + host + port + path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        }

        /// `{"type": "basic", "basic": [{"key": "username", "value": …}]}` (v2.1) or `{"basic": {"username": …}}` (v2.0).
        static func authValue(_ auth: LocatedJSON, _ type: String, _ key: String) -> String? {
            guard let block = auth[type] else { return nil }
            if case .array = block.value {
                return block.children.first { $0["key"]?.value.stringValue == key }?["value"]?.value.substitutionText
            }
            return block[key]?.value.substitutionText
        }

        mutating func applyAuth(_ auth: LocatedJSON?, to headers: inout [HTTPHeader], url: inout String, requestName: String) {
            guard let auth, let type = auth["type"]?.value.stringValue else { return }
            let hasAuthorization = headers.contains { HTTPHeader.namesMatch($0.name, "Authorization") }
            switch type {
            case "noauth":
                break
            case "basic":
                guard !hasAuthorization else { return }
                headers.append(.basicAuthorization(user: Self.authValue(auth, "basic", "username") ?? "",
                                                   password: Self.authValue(auth, "basic", "password") ?? ""))
            case "bearer":
                guard !hasAuthorization else { return }
                headers.append(HTTPHeader(name: "Authorization", value: "Bearer \(Self.authValue(auth, "bearer", "token") ?? "")"))
            case "apikey":
                let key = Self.authValue(auth, "apikey", "key") ?? "X-API-Key"
                let value = Self.authValue(auth, "apikey", "value") ?? ""
                if Self.authValue(auth, "apikey", "in") == "query" {
                    url += (url.containsBytes("?") ? "&" : "?") + key + "=" + value
                } else {
                    headers.append(HTTPHeader(name: key, value: value))
                }
            default:
                warn(auth, "request \(quoting: requestName): its \(type) auth is not applied (reqtop applies basic, bearer and API key auth; "
                     + "give the header yourself, e.g. Authorization: Bearer {{token}}); sent without it")
            }
        }

        mutating func body(_ body: LocatedJSON?, headers: inout [HTTPHeader], name: String) -> RequestBody? {
            guard let body, body["disabled"]?.value != .bool(true), let mode = body["mode"]?.value.stringValue else { return nil }
            func setContentType(_ value: String) { Self.addContentType(value, to: &headers) }
            switch mode {
            case "raw":
                let text = body["raw"]?.value.stringValue ?? ""
                guard !text.isEmpty else { return nil }
                // Postman sends the Content-Type its language picker implies when the request has none.
                switch body["options"]?["raw"]?["language"]?.value.stringValue {
                case "json"?: setContentType("application/json")
                case "xml"?: setContentType("application/xml")
                case "html"?: setContentType("text/html")
                case "javascript"?: setContentType("application/javascript")
                case "text"?: setContentType("text/plain")
                default: break
                }
                return .text(text)
            case "urlencoded":
                let fields = (body["urlencoded"]?.children ?? []).filter { $0["disabled"]?.value != .bool(true) }.map {
                    FormField(name: $0["key"]?.value.stringValue ?? "", value: $0["value"]?.value.substitutionText ?? "")
                }
                guard !fields.isEmpty else { return nil }
                setContentType("application/x-www-form-urlencoded")
                return .form(fields)
            case "formdata":
                return formData(body["formdata"]?.children ?? [], headers: &headers)
            case "graphql":
                let query = body["graphql"]?["query"]?.value.stringValue ?? ""
                let variables = body["graphql"]?["variables"]?.value.stringValue ?? ""
                var json = "{\"query\":" + JSONEscaping.quoted(query)
                if !variables.trimmingWhitespaceAndNewlines().isEmpty { json += ",\"variables\":" + variables }
                setContentType("application/json")
                return .text(json + "}")
            case "file":
                guard let src = body["file"]?["src"]?.value.stringValue, !src.isEmpty else { return nil }
                return .file(path: src, resolvedAgainst: path.deletingLastPathComponent)
            default:
                warn(body, "request \(quoting: name): its \(mode) body is not read; sent without a body")
                return nil
            }
        }

        /// Postman's form-data fields (a file field's `src`: a path, or a list whose first is used).
        func formData(_ fields: [LocatedJSON], headers: inout [HTTPHeader]) -> RequestBody? {
            multipart(fields.filter { $0["disabled"]?.value != .bool(true) }.map { field in
                let sources = field["src"].map { $0.value.stringValue.map { [$0] } ?? $0.children.compactMap(\.value.stringValue) } ?? []
                return ExportedFormField(name: field["key"]?.value.stringValue ?? "", value: field["value"]?.value.substitutionText ?? "",
                                         file: field["type"]?.value.stringValue == "file" ? sources.first ?? "" : nil,
                                         contentType: field["contentType"]?.value.stringValue)
            }, headers: &headers)
        }
    }
}
