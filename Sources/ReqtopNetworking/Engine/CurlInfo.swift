import CCurl

/// Facts about the libcurl this process runs with.
enum CurlInfo {
    /// Content codings libcurl decodes, in the order it lists them in `Accept-Encoding`.
    static let supportedEncodings: [String] = {
        let features = ccurl_features()
        var encodings: [String] = []
        if features & (1 << 3) != 0 { encodings += ["deflate", "gzip"] }   // CURL_VERSION_LIBZ
        if features & (1 << 23) != 0 { encodings.append("br") }            // CURL_VERSION_BROTLI
        if features & (1 << 26) != 0 { encodings.append("zstd") }          // CURL_VERSION_ZSTD
        return encodings
    }()
}
