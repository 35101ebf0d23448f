import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes a request as an HTTPie command line (`http`), for the inspector's copy menu.
///
/// Headers go as `Name:value` items in order; a body as `--raw` (HTTPie 3.2+), sent as written;
/// a body file as `< file` on stdin. `--ignore-stdin` keeps HTTPie from reading the terminal.
public enum HTTPieWriter {
    /// nil when the body is binary: a command line cannot carry it (the curl command can, with a file).
    /// Secrets are hidden by `redaction` (nil: in clear, `--include-secrets`).
    public static func command(for request: HTTPRequest, redaction: Redaction?) -> String? {
        let request = redaction?.request(request) ?? request
        var args = ["http"]
        if case .file = request.body {} else { args.append("--ignore-stdin") } // a body file comes on stdin
        if request.options.followRedirects != false { args.append("--follow") } // reqtop follows unless told not to
        if request.options.insecure == true { args.append("--verify=no") }
        if let timeout = request.options.timeout { args.append("--timeout=\(timeout)") }
        args.append(CurlWriter.quote(request.method))
        args.append(CurlWriter.quote(request.url.absoluteString))
        for header in request.headers {
            // `Name:` alone would send an empty header; HTTPie's syntax for that is `Name;`.
            args.append(CurlWriter.quote(header.value.isEmpty ? "\(header.name);" : "\(header.name):\(header.value)"))
        }
        switch request.body {
        case .none: break
        case .data(let data):
            if let text = String(data: data, encoding: .utf8), !text.containsBytes("\0") {
                args.append("--raw=" + CurlWriter.quote(text))
            } else {
                return nil
            }
        case .file(let path): args.append("< " + CurlWriter.quote(path))
        }
        return args.joined(separator: " ")
    }
}
