/// Decides every redirect of every task — the only place that does. libcurl never follows a
/// redirect itself (`CURLOPT_FOLLOWLOCATION` is off); the engine starts the next hop this returns.
///
/// - Which redirects: 301, 302, 303, 307 and 308 with a `Location`, while `followRedirects` is on.
/// - Method and body (as browsers and the Fetch standard do): 303 turns any method but HEAD into a
///   GET without a body; 301 and 302 turn a POST into a GET without a body; every other case keeps
///   the method and the body, and a 307 or 308 always does.
/// - Schemes: only http and https may follow (a redirect to `file:`, `dict:`, `ftp:` … fails the
///   task with `redirectRefused`); the engine also sets `CURLOPT_PROTOCOLS_STR` and
///   `CURLOPT_REDIR_PROTOCOLS_STR` to `http,https` on every handle.
/// - Hop limit: more than `maxRedirects` hops fails with `tooManyRedirects`.
/// - Credentials, as curl does: when scheme, host or port change, `Authorization`, `Cookie`,
///   `Proxy-Authorization` and a custom `Host` are not sent on, unless the request trusts
///   redirects (`curl --location-trusted`, `# @trusted-redirects`). The cookie jar still sends the
///   cookies that match the new host.
struct RedirectPolicy {
    static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]
    static let allowedSchemes: Set<String> = ["http", "https"]
    /// Value of `CURLOPT_PROTOCOLS_STR` and `CURLOPT_REDIR_PROTOCOLS_STR`.
    /// A literal, NUL-terminated: handed to libcurl in place (a short String was copied into a C string each time).
    static let curlProtocols: StaticString = "http,https"
    /// Headers that carry credentials for one origin.
    static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization", "Host"]
    /// Headers that describe a body, dropped with it.
    static let bodyHeaders = ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
                              "Transfer-Encoding"]

    enum Decision {
        /// Not a redirect to follow: this response is the task's response.
        case deliver
        /// Send `next`; the hop goes to `next.url`.
        case follow(TransferRequest)
        /// A redirect that must not be followed; the task fails with this error.
        case refuse(TransferError)
    }

    /// What to do after `response` answered `current`, when `hopsSoFar` redirects were already followed.
    static func decide(after response: HTTPResponseHead, to current: TransferRequest, hopsSoFar: Int) -> Decision {
        guard current.followRedirects, followedStatuses.contains(response.status),
              let location = response.headers.value(for: "Location") else { return .deliver }
        if let scheme = HTTPURL.scheme(of: location), !allowedSchemes.contains(scheme) {
            return .refuse(TransferError(code: .redirectRefused,
                                         message: "redirect to \(location) refused: only http and https redirects are followed"))
        }
        guard let target = current.url.resolving(location) else {
            return .refuse(TransferError(code: .redirectRefused, message: "redirect to an invalid URL: \(location)"))
        }
        guard hopsSoFar < current.maxRedirects else {
            return .refuse(TransferError(code: .tooManyRedirects, message: "more than \(current.maxRedirects) redirects"))
        }
        var next = current
        next.request.url = target
        let method = current.request.method
        let becomesGET = (response.status == 303 && method != "HEAD")
            || ((response.status == 301 || response.status == 302) && method == "POST")
        if becomesGET {
            next.request.method = "GET"
            next.request.body = .none
            for name in bodyHeaders { next.request.headers.removeAll(named: name) }
        }
        if !current.trustedRedirects, !target.hasSameOrigin(as: current.url) {
            for name in credentialHeaders { next.request.headers.removeAll(named: name) }
        }
        return .follow(next)
    }
}
