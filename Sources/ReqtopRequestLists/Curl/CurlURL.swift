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
