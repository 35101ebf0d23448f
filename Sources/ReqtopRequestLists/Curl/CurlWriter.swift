import FoundationEssentials

/// Writes requests as bash curl commands that send what reqtop sends and that `CurlImporter`
/// reads back to the same requests.
///
/// curl adds `Content-Type: application/x-www-form-urlencoded` to a body without one; reqtop does
/// not, so such a command carries `-H 'Content-Type:'` (and `-H 'Expect:'` past 1 MB). A body that
/// is not UTF-8 text or holds a NUL byte (which no shell argument can) goes to a body file sent
/// with `--data-binary @file`.
public enum CurlWriter {
    /// A command for a request: URL, method as written, headers in order, body bytes, options.
    /// Secrets are hidden by `redaction` (nil: in clear, `--include-secrets`).
    public static func command(for request: HTTPRequest, bodyFiles: inout BodyFiles, redaction: Redaction?) -> String {
        let request = redaction?.request(request) ?? request
        // curl would read `[1]` or `{a,b}` in a URL as a glob pattern: -g sends them as written.
        var args = request.url.absoluteString.contains(where: { "[]{}".contains($0) }) ? ["-g"] : []
        args += methodArguments(request.method, hasBody: request.body != .none)
        args += headerArguments(request.headers, hasBody: request.body != .none)
        var bodySize = 0
        switch request.body {
        case .none: break
        case .data(let data):
            bodySize = data.count
            if let text = String(data: data, encoding: .utf8), !text.containsBytes("\0") {
                args += ["--data-raw", quote(text)]
            } else {
                args += ["--data-binary", quote("@" + bodyFiles.add(data))]
            }
        case .file(let path):
            bodySize = Int(FileStatus(path: path)?.size ?? 0)
            args += ["--data-binary", quote("@" + path)]
        }
        // Past 1 MB curl adds `Expect: 100-continue`; reqtop does not.
        if bodySize > 1 << 20, !request.headers.contains(name: "Expect") { args += ["-H", quote("Expect:")] }
        args += optionArguments(request.options)
        return join(url: request.url.absoluteString, args)
    }

    static func methodArguments(_ method: String, hasBody: Bool) -> [String] {
        switch (method, hasBody) {
        case ("HEAD", false): return ["-I"]
        case ("GET", false), ("POST", true): return []
        default: return ["-X", quote(method)]
        }
    }

    static func headerArguments(_ headers: [HTTPHeader], hasBody: Bool) -> [String] {
        var args: [String] = []
        for header in headers {
            args += ["-H", quote(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")]
        }
        if hasBody, !headers.contains(name: "Content-Type") { args += ["-H", quote("Content-Type:")] }
        return args
    }

    static func optionArguments(_ options: HTTPRequest.Options) -> [String] {
        var args: [String] = []
        // reqtop follows redirects unless told not to; curl only with -L.
        if options.followRedirects != false { args.append(options.trustedRedirects == true ? "--location-trusted" : "-L") }
        if let hops = options.maxRedirects { args += ["--max-redirs", String(hops)] }
        if options.insecure == true { args.append("-k") }
        if options.compressed == true { args.append("--compressed") }
        if let version = options.httpVersion { args.append("--" + version.flag) }
        if let timeout = options.timeout { args += ["-m", HTTPFileWriter.formatNumber(timeout)] }
        for name in options.omittedHeaders ?? [] { args += ["-H", quote("\(name):")] }
        return args
    }

    /// `curl 'URL'` followed by one option (with its value) per continuation line.
    static func join(url: String, _ args: [String]) -> String {
        let takesValue: Set<String> = ["-H", "-X", "--data-raw", "--data-binary", "-m", "--max-redirs"]
        var out = "curl " + quote(url)
        var i = 0
        while i < args.count {
            out += " \\\n  " + args[i]
            if takesValue.contains(args[i]), i + 1 < args.count {
                out += " " + args[i + 1]
                i += 1
            }
            i += 1
        }
        return out
    }

    /// Single quotes, or `$'…'` with escapes when the text has quotes or control characters.
    public static func quote(_ text: String) -> String {
        let needsANSI = text.unicodeScalars.contains { $0 == "'" || $0.value < 0x20 || $0.value == 0x7F }
        guard needsANSI else { return "'" + text + "'" }
        var out = "$'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\x" + (hex.count == 1 ? "0" : "") + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "'"
    }
}
