import Foundation

/// Writes specs and resolved requests as bash curl commands that `CurlImporter` reads back.
public enum CurlWriter {
    /// A command for a spec (templates are written as they are).
    public static func command(for spec: RequestSpec) -> String {
        var args: [String] = []
        args += methodArguments(spec.method, hasBody: spec.body != nil)
        for header in spec.headers { args += ["-H", quote("\(header.name): \(header.value)")] }
        switch spec.body {
        case nil: break
        case let .text(text): args += ["--data-raw", quote(text)]
        case let .file(path, _): args += ["--data-binary", quote("@" + path)]
        case let .form(fields): for field in fields { args += ["--data-urlencode", quote("\(field.name)=\(field.value)")] }
        }
        args += optionArguments(spec.options)
        return join(url: spec.url, args)
    }

    /// A command for a resolved request: substituted URL, headers and body.
    public static func command(for request: ResolvedRequest) -> String {
        var args: [String] = []
        args += methodArguments(request.method, hasBody: request.body != nil)
        for header in request.headers { args += ["-H", quote("\(header.name): \(header.value)")] }
        if let body = request.body {
            if let text = String(data: body, encoding: .utf8) {
                args += ["--data-raw", quote(text)]
            } else {
                args += ["--data-binary", quote(String(decoding: body, as: UTF8.self))]
            }
        }
        args += optionArguments(request.spec.options)
        return join(url: request.url.absoluteString, args)
    }

    /// Several specs, one command each, separated by blank lines.
    public static func commands(for specs: [RequestSpec]) -> String {
        specs.map(command(for:)).joined(separator: "\n\n") + "\n"
    }

    static func methodArguments(_ method: String, hasBody: Bool) -> [String] {
        switch (method, hasBody) {
        case ("HEAD", false): return ["-I"]
        case ("GET", false), ("POST", true): return []
        default: return ["-X", quote(method)]
        }
    }

    static func optionArguments(_ options: RequestOptions) -> [String] {
        var args: [String] = []
        // reqtop follows redirects unless told not to; curl only with -L.
        if options.followRedirects != false { args.append("-L") }
        if options.insecure == true { args.append("-k") }
        if options.compressed { args.append("--compressed") }
        if let timeout = options.timeout { args += ["-m", HTTPFileWriter.formatNumber(timeout)] }
        return args
    }

    /// `curl 'URL'` followed by one option (with its value) per continuation line.
    static func join(url: String, _ args: [String]) -> String {
        let takesValue: Set<String> = ["-H", "-X", "--data-raw", "--data-binary", "--data-urlencode", "-m"]
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
