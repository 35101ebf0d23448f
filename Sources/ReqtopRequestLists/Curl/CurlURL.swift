import CCurl

/// A curl command's URL read by libcurl's own URL parser (`curl_url`), with the flags libcurl uses
/// for `CURLOPT_URL`: what curl 7.88 sends, not what another parser thinks the text means
/// (`http:///host:9999/x` is `http://host:9999/x`; `host/x` is `http://host/x`; `/a/../b` is `/b`).
enum CurlURL {
    /// The URL as curl normalizes it, or curl's reason for refusing it.
    static func normalized(_ text: String) -> Result<String, Refused> {
        guard let handle = curl_url() else { return .failure(Refused(message: "libcurl could not allocate a URL handle")) }
        defer { curl_url_cleanup(handle) }
        let flags = UInt32(CURLU_GUESS_SCHEME) | UInt32(CURLU_NON_SUPPORT_SCHEME)
        let set = curl_url_set(handle, CURLUPART_URL, text, flags)
        guard set == CURLUE_OK else {
            return .failure(Refused(message: "curl refuses this URL: " + String(cString: curl_url_strerror(set))))
        }
        var out: UnsafeMutablePointer<CChar>?
        let got = curl_url_get(handle, CURLUPART_URL, &out, 0)
        guard got == CURLUE_OK, let out else {
            return .failure(Refused(message: "curl refuses this URL: " + String(cString: curl_url_strerror(got))))
        }
        defer { curl_free(out) }
        return .success(String(cString: out))
    }

    struct Refused: Error {
        var message: String
    }
}

extension CurlURL {
    /// At most this many URLs from one glob (curl has no limit; a list this long is a mistake).
    static let maxGlobURLs = 10_000

    /// The URLs curl makes of `pattern` with its URL globbing (on unless `-g`/`--globoff`): each
    /// `{a,b}` set and `[1-3]`/`[a-c]`/`[01-10:2]` range multiplies the URLs, in curl's order (the
    /// last pattern varies fastest); `\{` and friends are literal; an IPv6 literal `[::1]` is not a
    /// range. A pattern curl refuses throws curl's reason.
    static func glob(_ pattern: String) -> Result<[String], Refused> {
        var pieces: [[String]] = [] // each piece: its alternatives (a literal has one)
        var literal = ""
        let chars = Array(pattern)
        var i = 0
        func refuse(_ why: String) -> Result<[String], Refused> {
            .failure(Refused(message: "curl's URL globbing: \(why) at position \(i + 1) (use -g to send it as written)"))
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, "{}[],".contains(chars[i + 1]) {
                literal.append(chars[i + 1])
                i += 2
                continue
            }
            if c == "{" {
                guard let close = chars[(i + 1)...].firstIndex(of: "}") else { return refuse("unmatched brace") }
                let inner = String(chars[(i + 1)..<close])
                if inner.containsBytes("{") { return refuse("nested brace") }
                pieces.append([literal])
                literal = ""
                pieces.append(inner.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
                i = close + 1
                continue
            }
            if c == "}" { return refuse("unmatched close brace") }
            if c == "[" {
                guard let close = chars[(i + 1)...].firstIndex(of: "]") else { return refuse("unmatched bracket") }
                let inner = String(chars[(i + 1)..<close])
                // An IPv6 address literal (hex digits, colons, dots, a zone) is the host, not a range.
                if inner.containsBytes(":"), inner.allSatisfy({ $0.isHexDigit || ":.%".contains($0) || $0.isLetter || $0.isNumber }) {
                    literal += "[" + inner + "]"
                    i = close + 1
                    continue
                }
                guard let range = Self.range(inner) else { return refuse("bad range [\(inner)]") }
                pieces.append([literal])
                literal = ""
                pieces.append(range)
                i = close + 1
                continue
            }
            if c == "]" { return refuse("unmatched close bracket") }
            literal.append(c)
            i += 1
        }
        pieces.append([literal])
        var urls = [""]
        for alternatives in pieces {
            guard urls.count * alternatives.count <= maxGlobURLs else {
                return .failure(Refused(message: "curl's URL globbing makes more than \(maxGlobURLs) URLs of this one"))
            }
            urls = urls.flatMap { prefix in alternatives.map { prefix + $0 } }
        }
        return .success(urls)
    }

    /// `a-z`, `1-10`, `001-100`, with an optional `:step`.
    private static func range(_ text: String) -> [String]? {
        let parts = text.split(separator: ":", maxSplits: 1)
        let step = parts.count == 2 ? Int(parts[1]) : 1
        guard let step, step > 0, let bounds = parts.first?.split(separator: "-", maxSplits: 1), bounds.count == 2 else { return nil }
        let (from, to) = (String(bounds[0]), String(bounds[1]))
        if from.count == 1, to.count == 1, let a = from.first, let b = to.first, a.isLetter, b.isLetter, a.isASCII, b.isASCII {
            guard let low = a.asciiValue, let high = b.asciiValue, low <= high, a.isLowercase == b.isLowercase else { return nil }
            return stride(from: Int(low), through: Int(high), by: step).map { String(UnicodeScalar(UInt8($0))) }
        }
        guard let low = Int(from), let high = Int(to), low >= 0, low <= high, Double(high - low) / Double(step) < Double(maxGlobURLs) else { return nil }
        let width = from.hasPrefix("0") ? from.count : 0 // `[001-100]` keeps the width
        return stride(from: low, through: high, by: step).map { n in
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }
}
