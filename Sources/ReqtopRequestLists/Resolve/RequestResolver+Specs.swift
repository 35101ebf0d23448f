import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a spec holds before it is resolved: its templates, the files it reads, whether it resolves
/// as written; and what a resolved request must not carry (an unresolved `{{…}}`).
extension RequestResolver {
    /// A `{{…}}` still in the URL or a header after substitution (a value that brought one with it:
    /// `--var id={{x}}`, an environment value with a placeholder meant for another client) would go
    /// out as text nobody meant to send: the request is not sent, saying which placeholder and where.
    func refuseUnresolvedPlaceholders(url: String, headers: [HTTPHeader], spec: RequestSpec, index: Int) throws(RequestListError) {
        var found: (place: String, text: String)?
        if let range = Self.placeholder(in: url) {
            found = ("URL", String(url[range]))
        } else {
            for header in headers {
                if let range = Self.placeholder(in: header.name) { found = ("header name", String(header.name[range])); break }
                if let range = Self.placeholder(in: header.value) { found = ("\(header.name) header", String(header.value[range])); break }
            }
        }
        guard let found else { return }
        var error = VariableLocator(list: list).error(
            "the \(found.place) still holds \(quoting: found.text) after substitution (a variable's value brought it); "
                + "reqtop does not send an unresolved placeholder", spec: index)
        error.needsRequestScript = true // not sent; the rest of the list runs
        throw error
    }

    /// The range of the first `{{…}}` (on one line) in `text`, or nil.
    static func placeholder(in text: String) -> Range<String.Index>? {
        guard text.containsTemplateOpening, let open = text.byteRange(of: "{{"),
              let close = text.byteRange(of: "}}", in: open.upperBound..<text.endIndex),
              !text[open.upperBound..<close.lowerBound].contains(where: \.isNewline) else { return nil }
        return open.lowerBound..<close.upperBound
    }

    /// `.http` files may write `Authorization: Basic user password` or `Basic user:password` in
    /// the clear, as the JetBrains and VS Code clients accept; the header sent is base64-encoded.
    /// A value that is already one token without a colon is taken as encoded. Which form it is, is
    /// read from the value as written (`written`, before its variables were substituted): a
    /// `{{user}}:{{password}}` whose values hold spaces stays one pair.
    static func encodingBasicCredentials(_ value: String, written: String? = nil) -> String {
        let parts = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].lowercased() == "basic" else { return value }
        let credentials: String
        if let written, Self.isColonPair(written) {
            credentials = String(value[parts[1].startIndex...])
        } else if parts.count == 3 {
            credentials = "\(parts[1]):\(parts[2])"
        } else if parts[1].containsBytes(":") {
            credentials = String(parts[1])
        } else {
            return value
        }
        return "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    /// `Basic user:password` as written: one word after `Basic`, holding a colon.
    private static func isColonPair(_ written: String) -> Bool {
        let parts = written.split(separator: " ", omittingEmptySubsequences: true)
        return parts.count == 2 && parts[0].lowercased() == "basic" && parts[1].containsBytes(":")
    }

    /// Whether `spec` resolves to a request with nothing to substitute and nothing that can fail
    /// later: no `{{`, a token method, an absolute http(s) URL, no body file, not GraphQL. A long
    /// list notes this when it is first parsed (one bit a request), so validation need not parse the
    /// request again.
    static func resolvesAsWritten(_ spec: RequestSpec) -> Bool {
        switch spec.body {
        case nil, .text?, .bytes?, .form?: break
        case .file?, .parts?: return false
        }
        guard !hasTemplates(spec), HTTPRequest.isValidMethod(spec.method), !spec.url.hasPrefix("/"),
              spec.method.utf8.count != 7 || spec.method.uppercased() != "GRAPHQL", spec.header(named: "X-REQUEST-TYPE") == nil,
              let url = makeURL(spec.url), url.scheme == "http" || url.scheme == "https" else { return false }
        return true
    }

    /// The URL as written; `http://` is assumed when it names no scheme (`localhost:8080/x`).
    static func makeURL(_ text: String) -> HTTPURL? {
        if let url = HTTPURL(string: text) { return url } // it trims the text itself
        let candidate = text.trimmingWhitespace()
        return candidate.containsBytes("://") ? nil : HTTPURL(string: "http://" + candidate)
    }

    /// Whether any text of the spec has a `{{` (most requests of a long list have none).
    static func hasTemplates(_ spec: RequestSpec) -> Bool {
        if spec.url.containsTemplateOpening || spec.headers.contains(where: { $0.name.containsTemplateOpening || $0.value.containsTemplateOpening }) {
            return true
        }
        switch spec.body {
        case nil, .bytes?: return false
        default: return templates(of: spec).contains { $0.containsTemplateOpening }
        }
    }

    /// The text of each `<@` file of the body that can be read now (its variables, and the responses
    /// it uses, count as the request's own; a file that cannot be read fails when the request is sent).
    func substitutedFileTexts(of spec: RequestSpec) -> [String] {
        guard case let .parts(parts)? = spec.body else { return [] }
        return parts.compactMap { part -> String? in
            guard case let .file(path, directory, true) = part, !path.containsTemplateOpening,
                  let data = FileManager.default.contents(atPath: RequestBody.absolutePath(path, relativeTo: directory)) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Whether the body has a `<@` file part, whose text is substituted when it is read.
    func readsFileWithVariables(_ spec: RequestSpec) -> Bool {
        guard case let .parts(parts)? = spec.body else { return false }
        return parts.contains { if case .file(_, _, true) = $0 { true } else { false } }
    }

    static func templates(of spec: RequestSpec) -> [String] {
        var texts = [spec.url]
        for header in spec.headers { texts += [header.name, header.value] }
        switch spec.body {
        case let .text(text)?: texts.append(text)
        case let .file(path, _)?: texts.append(path)
        case let .form(fields)?: for field in fields { texts += [field.name, field.value] }
        case let .parts(parts)?:
            for part in parts {
                switch part {
                case let .text(text): texts.append(text)
                case let .file(path, _, _): texts.append(path) // a `<@` file's own variables are checked when it is read
                }
            }
        case .bytes?, nil: break
        }
        return texts
    }
}
