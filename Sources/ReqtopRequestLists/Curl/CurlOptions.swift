/// curl 7.88's command-line options, as `curl --help all` lists them: which take an argument, so
/// that an option reqtop does not apply still consumes its value (and the value is never read as
/// a URL), and the long name of each short option.
enum CurlOptions {
    /// Short options that take an argument.
    static let shortWithArgument: Set<Character> = [
        "A", "b", "c", "C", "d", "D", "e", "E", "F", "H", "K", "m", "o", "P", "Q", "r", "t", "T", "u", "U", "w", "x", "X",
        "y", "Y", "z",
    ]

    /// Long options that take an argument.
    static let longWithArgument: Set<String> = [
        "abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type", "ciphers", "config",
        "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode", "crlfile", "curves",
        "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation", "dns-interface", "dns-ipv4-addr",
        "dns-ipv6-addr", "dns-servers", "doh-url", "dump-header", "egd-file", "engine", "etag-compare", "etag-save",
        "expect100-timeout", "form", "form-string", "ftp-account", "ftp-alternative-to-user", "ftp-method", "ftp-port",
        "ftp-ssl-ccc-mode", "happy-eyeballs-timeout-ms", "header", "help", "hostpubmd5", "hostpubsha256", "hsts",
        "interface", "json", "keepalive-time", "key", "key-type", "krb", "libcurl", "limit-rate", "local-port",
        "login-options", "mail-auth", "mail-from", "mail-rcpt", "max-filesize", "max-redirs", "max-time", "netrc-file",
        "noproxy", "oauth2-bearer", "output", "output-dir", "parallel-max", "pass", "pinnedpubkey", "preproxy", "proto",
        "proto-default", "proto-redir", "proxy", "proxy-cacert", "proxy-capath", "proxy-cert", "proxy-cert-type",
        "proxy-ciphers", "proxy-crlfile", "proxy-header", "proxy-key", "proxy-key-type", "proxy-pass",
        "proxy-pinnedpubkey", "proxy-service-name", "proxy-tls13-ciphers", "proxy-tlsauthtype", "proxy-tlspassword",
        "proxy-tlsuser", "proxy-user", "proxy1.0", "pubkey", "quote", "random-file", "range", "rate", "referer",
        "request", "request-target", "resolve", "retry", "retry-delay", "retry-max-time", "sasl-authzid", "service-name",
        "socks4", "socks4a", "socks5", "socks5-gssapi-service", "socks5-hostname", "speed-limit", "speed-time", "stderr",
        "telnet-option", "tftp-blksize", "time-cond", "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser",
        "trace", "trace-ascii", "trace-config", "unix-socket", "upload-file", "url", "url-query", "user", "user-agent",
        "variable", "write-out",
    ]

    /// Short option letters and their long names.
    static let longNameOfShort: [Character: String] = [
        "A": "user-agent", "b": "cookie", "c": "cookie-jar", "C": "continue-at", "d": "data", "D": "dump-header",
        "e": "referer", "E": "cert", "f": "fail", "F": "form", "g": "globoff", "G": "get", "h": "help", "H": "header",
        "i": "include", "I": "head", "j": "junk-session-cookies", "k": "insecure", "K": "config", "l": "list-only",
        "L": "location", "m": "max-time", "n": "netrc", "N": "no-buffer", "o": "output", "O": "remote-name", "p": "proxytunnel",
        "P": "ftp-port", "q": "disable", "Q": "quote", "r": "range", "R": "remote-time", "s": "silent", "S": "show-error",
        "t": "telnet-option", "T": "upload-file", "u": "user", "U": "proxy-user", "v": "verbose", "V": "version",
        "w": "write-out", "x": "proxy", "X": "request", "y": "speed-time", "Y": "speed-limit", "z": "time-cond",
        "Z": "parallel", "0": "http1.0", "1": "tlsv1", "2": "sslv2", "3": "sslv3", "4": "ipv4", "6": "ipv6", "#": "progress-bar",
        ":": "next",
    ]

    /// Options that change nothing about the request sent (output, progress, verbosity …): accepted silently.
    static let noEffectOnTheRequest: Set<String> = [
        "silent", "show-error", "verbose", "include", "fail", "fail-with-body", "output", "remote-name", "remote-name-all",
        "remote-header-name", "progress-bar", "no-progress-meter", "no-buffer", "write-out", "dump-header", "stderr",
        "trace", "trace-ascii", "trace-time", "create-dirs", "output-dir", "styled-output", "no-styled-output", "globoff",
        "tcp-nodelay", "no-keepalive", "keepalive-time", "retry", "retry-delay",
        "retry-max-time", "retry-all-errors", "retry-connrefused", "connect-timeout", "ipv4", "ipv6", "parallel",
        "parallel-max", "parallel-immediate", "remote-time", "raw", "ssl-no-revoke", "libcurl",
    ]
}
