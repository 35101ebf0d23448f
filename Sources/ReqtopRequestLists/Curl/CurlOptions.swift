/// What reqtop knows about curl's command-line options.
enum CurlOptions {
    /// Short options that take an argument (from `curl --help all`).
    static let shortWithArgument: Set<Character> = [
        "A", "b", "c", "C", "d", "D", "e", "E", "F", "H", "K", "m", "o", "P", "Q", "r", "t", "T", "u", "U", "w", "x", "X",
        "y", "Y", "z",
    ]

    /// Long options that take an argument; unknown long options not listed here are assumed to take none.
    static let longWithArgument: Set<String> = [
        "request", "header", "data", "data-ascii", "data-raw", "data-binary", "data-urlencode", "user", "cookie",
        "user-agent", "referer", "url", "max-time", "connect-timeout", "output", "form", "form-string", "proxy", "proxy-user",
        "cacert", "capath", "cert", "cert-type", "key", "key-type", "cookie-jar", "retry", "retry-delay", "retry-max-time",
        "resolve", "connect-to", "write-out", "limit-rate", "interface", "dns-servers", "range", "upload-file", "config",
        "oauth2-bearer", "max-redirs", "ciphers", "continue-at", "dump-header", "expect100-timeout", "json", "local-port",
        "max-filesize", "noproxy", "pass", "proto", "proto-redir", "quote", "speed-limit", "speed-time", "stderr", "trace",
        "trace-ascii", "unix-socket", "abstract-unix-socket", "variable", "aws-sigv4", "preproxy", "proxy-header",
        "request-target", "tls-max", "happy-eyeballs-timeout-ms", "time-cond", "output-dir", "create-file-mode",
    ]

    /// Short option letters and their long names, for the options reqtop applies.
    static let longNameOfShort: [Character: String] = [
        "X": "request", "H": "header", "d": "data", "u": "user", "b": "cookie", "A": "user-agent", "e": "referer",
        "k": "insecure", "L": "location", "I": "head", "G": "get", "m": "max-time", "g": "globoff",
    ]
}
