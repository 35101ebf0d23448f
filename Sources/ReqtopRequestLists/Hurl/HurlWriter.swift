import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes resolved requests as a Hurl file (`reqtop convert --to hurl`): one entry each, with
/// its header fields in order, its options (`location`, `insecure`…) and its body exactly (a
/// one-line `` `text` ``, a ``` block when it ends with a line break, JSON as written, else
/// `base64,…;` — a body with `{{` is written as bytes, which Hurl does not read variables in).
/// A request from a Hurl list keeps its response section (status, headers, captures, asserts).
enum HurlWriter {
    static func text(for requests: [(request: HTTPRequest, checks: ResponseChecks?)], redaction: Redaction?) -> String {
        var out = ""
        for (offset, entry) in requests.enumerated() {
            if offset > 0 { out += "\n" }
            let request = redaction?.request(entry.request) ?? entry.request
            out += "\(request.method) \(request.url.absoluteString)\n"
            for header in request.headers {
                out += "\(escapeKey(header.name)): \(escapeValue(header.value))\n"
            }
            let options = self.options(request.options)
            if !options.isEmpty { out += "[Options]\n" + options.map { "\($0): \($1)\n" }.joined() }
            out += body(request.body)
            if let checks = entry.checks { out += self.checks(checks) }
        }
        return out
    }

    static func options(_ options: HTTPRequest.Options) -> [(String, String)] {
        var out: [(String, String)] = []
        if options.followRedirects == true { out.append((options.trustedRedirects == true ? "location-trusted" : "location", "true")) }
        if let max = options.maxRedirects { out.append(("max-redirs", String(max))) }
        if options.insecure == true { out.append(("insecure", "true")) }
        if options.compressed == true { out.append(("compressed", "true")) }
        switch options.httpVersion {
        case .http1_1: out.append(("http1.1", "true"))
        case .http2, .http2PriorKnowledge: out.append(("http2", "true")) // (Hurl has no prior-knowledge option)
        case nil: break
        }
        if let timeout = options.timeout { out.append(("max-time", "\(Int((timeout * 1000).rounded()))ms")) }
        return out
    }

    static func body(_ body: HTTPRequest.Body) -> String {
        switch body {
        case .none: return ""
        case .file(let path): return "file,\(path.replacingEvery(";", with: "\\;"));\n"
        case .data(let data):
            guard !data.isEmpty else { return "" }
            guard let text = String(data: data, encoding: .utf8), !text.containsBytes("{{"),
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F }) else {
                return "base64,\(data.base64EncodedString());\n"
            }
            if !text.containsBytes("\n") { return "`\(escapeOneLine(text))`\n" }
            if text.hasSuffix("\n"), !text.split(separator: "\n", omittingEmptySubsequences: false).contains(where: { $0.trimmingWhitespace().hasPrefix("```") }),
               !text.hasPrefix("\n") || text.count > 1 {
                return "```\n" + text + "```\n"
            }
            if let first = text.first, first == "{" || first == "[", (try? JSONParser.parse(text)) != nil, text.last == "}" || text.last == "]" {
                return text + "\n"
            }
            return "`\(escapeOneLine(text))`\n"
        }
    }

    static func checks(_ checks: ResponseChecks) -> String {
        var out = ""
        if let line = checks.statusLine { out += line.text + "\n" } else { out += "HTTP *\n" }
        for header in checks.headers { out += "\(escapeKey(header.name)): \(escapeValue(header.value))\n" }
        if !checks.captures.isEmpty { out += "[Captures]\n" + checks.captures.map { $0.text + "\n" }.joined() }
        if !checks.asserts.isEmpty { out += "[Asserts]\n" + checks.asserts.map { $0.text + "\n" }.joined() }
        switch checks.body?.expected {
        case .json(let text)?: out += text + "\n"
        case .text(let text)?: out += text.hasSuffix("\n") ? "```\n" + text + "```\n" : "`\(escapeOneLine(text))`\n"
        case .bytes(let data)?: out += "base64,\(data.base64EncodedString());\n"
        case nil: break
        }
        return out
    }

    static func escapeKey(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\").replacingEvery(":", with: "\\:").replacingEvery("#", with: "\\#")
    }

    static func escapeValue(_ text: String) -> String {
        var out = text.replacingEvery("\\", with: "\\\\").replacingEvery("#", with: "\\#")
        if out.hasPrefix(" ") { out = "\\" + out } // leading spaces would be trimmed
        if out.hasSuffix(" ") { out = String(out.dropLast()) + "\\u{20}" }
        return out
    }

    static func escapeOneLine(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\").replacingEvery("`", with: "\\`").replacingEvery("\n", with: "\\n")
            .replacingEvery("\t", with: "\\t")
    }
}
