import CCurl
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One easy handle and what must live as long as it does. Engine thread only.
final class Transfer {
    let id: TaskID
    let request: TransferRequest
    /// The task's state, shared by the transfers of its redirect hops.
    let state: TransferState
    let delegate: SessionDelegate
    /// `request.hostKey`, made once: the engine reads it when the transfer starts and when it ends.
    let hostKey: String
    private(set) var easy: OpaquePointer?
    /// The idle timeout (seconds; nil: none): the transfer fails when no byte has moved either way
    /// on its connection for this long, head bytes included (`checkIdle`).
    let idleLimit: Double?
    /// When a callback last moved bytes (monotonic seconds); with the kernel's own count, how idle it is.
    private var lastActivity = Transfer.now()
    /// Paused (by a suspend, or waiting for its stream): not timed.
    private var paused = false
    /// The engine's table of open sockets (`ccurl_sockets`), where this transfer's connection is found.
    private var sockets: OpaquePointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var errorBuffer: UnsafeMutablePointer<CChar>?

    init(id: TaskID, request: TransferRequest, state: TransferState, delegate: SessionDelegate) {
        self.id = id
        self.request = request
        self.state = state
        self.delegate = delegate
        hostKey = request.hostKey
        idleLimit = request.idleTimeout.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    // MARK: Idle time (engine thread)

    /// Monotonic seconds from the coarse clock: a tick or so of resolution (4 ms here) is plenty for an
    /// idle limit of seconds, and it is read without the timestamp counter (a callback that moves bytes
    /// runs several times a request; the precise clock was ~1% of a long run's CPU).
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Bytes moved (a callback took or gave some): not idle.
    func moved() {
        if idleLimit != nil { lastActivity = Self.now() }
        paused = false
    }

    /// The transfer paused (suspended, or waiting for a stream) or went on.
    func setPaused(_ value: Bool) {
        paused = value
        if !value, idleLimit != nil { lastActivity = Self.now() }
    }

    /// How long the transfer has been idle, or nil when it is not timed (paused, no idle timeout).
    /// Callbacks see head bytes only a line at a time: past the limit, the kernel's count for the
    /// connection (TCP_INFO: every byte either way, head bytes included) decides.
    func idleSeconds() -> Double? {
        guard let idleLimit, !paused, let easy, let sockets else { return nil }
        let sinceCallback = Self.now() - lastActivity
        // Most checks end here, without a system call: bytes reached a callback within the limit.
        guard sinceCallback >= idleLimit else { return sinceCallback }
        let kernel = ccurl_connection_idle_ms(easy, sockets)
        return kernel >= 0 ? min(sinceCallback, Double(kernel) / 1000) : sinceCallback
    }

    /// Takes `easy` (new, or `reused`: reset by `curl_easy_reset`) and sets every option from the request.
    func configure(easy: OpaquePointer, share: OpaquePointer, sockets: OpaquePointer, reused: Bool) {
        self.easy = easy
        self.sockets = sockets
        ccurl_track_sockets(easy, sockets)
        let r = request
        ccurl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, UnsafeMutableRawPointer(bitPattern: id.rawValue))
        ccurl_install_callbacks(easy, Unmanaged.passUnretained(self).toOpaque())
        ccurl_easy_setopt_string(easy, CURLOPT_URL, r.url.absoluteString)
        ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        ccurl_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, Int(TransferState.readSize))
        ccurl_easy_setopt_share(easy, share)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer!.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)

        // Method exactly as written, body, headers in list order; nothing invented: libcurl's default
        // Content-Type for a body and its Expect: 100-continue are suppressed unless the request has them.
        let headers = r.request.headers
        let method = r.request.method
        if !r.hasBody {
            if method == "GET" { ccurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1) }
            else if method == "HEAD" { ccurl_easy_setopt_long(easy, CURLOPT_NOBODY, 1) }
            else { ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method) }
        } else {
            ccurl_easy_setopt_long(easy, CURLOPT_POST, 1)
            ccurl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(r.bodySize ?? -1)) // -1: chunked
            if method != "POST" { ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method) }
        }
        for header in headers { headerList = curl_slist_append(headerList, Self.headerLine(header)) }
        for name in ClientHeaders.suppressed(r) { headerList = curl_slist_append(headerList, name + ":") } // "Name:" removes libcurl's own
        if let headerList { ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList) }
        if let userAgent = r.userAgent { ccurl_easy_setopt_string(easy, CURLOPT_USERAGENT, userAgent) }

        // Time limits (clamped: a huge value is no limit rather than a trap).
        if let timeout = r.timeout { ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout)) }
        ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(r.connectTimeout))
        // The idle timeout is reqtop's own (`idleSeconds`, checked at each progress call): libcurl's
        // low-speed limit counts body bytes only, so a head arriving slowly was failed as "idle".
        lastActivity = Self.now()

        // Redirects are decided by `RedirectPolicy` and followed by the engine, one transfer per hop;
        // libcurl speaks http and https only, whatever a URL or a Location says.
        ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        let protocols = UnsafeRawPointer(RedirectPolicy.curlProtocols.utf8Start).assumingMemoryBound(to: CChar.self)
        ccurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, protocols)
        ccurl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, protocols)

        // TLS, HTTP version, proxy, compression, cookies.
        if r.insecure {
            ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0)
            ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let caFile = r.caFile { ccurl_easy_setopt_string(easy, CURLOPT_CAINFO, caFile) }
        switch r.httpVersion {
        case .automatic: break // (HTTP/2 over TLS by ALPN, as curl)
        case .http1_1: ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        case .http2: ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_0))
        case .http2PriorKnowledge:
            ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE))
            if r.url.scheme == "http", Self.reusesCleartextHTTP2Badly {
                // libcurl before 8.0 fails the second request on a reused prior-knowledge connection
                // ("Error in the HTTP2 framing layer", curl#10634): each such request gets a connection of its own.
                ccurl_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1)
                ccurl_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1)
            }
        }
        // A new request to a host whose connection may speak HTTP/2 waits to learn whether it can be a
        // stream on it (as curl --parallel does) rather than opening a connection of its own.
        if r.httpVersion != .http1_1, r.url.scheme == "https" || r.httpVersion != .automatic {
            ccurl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
        }
        switch r.proxy {
        case .environment: break
        case .none: ccurl_easy_setopt_string(easy, CURLOPT_PROXY, "")
        case .url(let proxy): ccurl_easy_setopt_string(easy, CURLOPT_PROXY, proxy)
        }
        if r.compression { ccurl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "") }
        // Once per handle: libcurl appends each CURLOPT_COOKIEFILE to a list that `curl_easy_reset` keeps and
        // reads all of at every start (100,000 requests held 7 MB of it), and a reset handle keeps its cookie engine.
        if r.cookies, !reused { ccurl_easy_setopt_string(easy, CURLOPT_COOKIEFILE, "") }
        // A proxy's "200 Connection established" is not the response.
        ccurl_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    }

    /// libcurl's header syntax: "Name;" sends a header with an empty value ("Name:" would remove it).
    private static func headerLine(_ header: HTTPHeader) -> String {
        header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
    }

    /// libcurl before 8.0.0 cannot reuse a cleartext prior-knowledge HTTP/2 connection (curl#10634, fixed in 8.0.0).
    static let reusesCleartextHTTP2Badly = ccurl_version_number() < 0x08_00_00

    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 } // 0: no limit
        return Int(min(max(1, seconds * 1000), Double(Int32.max)))
    }

    /// libcurl's detailed message for the last error, if any.
    var errorDetail: String {
        guard let errorBuffer else { return "" }
        return String(cString: errorBuffer)
    }

    /// Body bytes received so far as they came off the wire (before content decoding).
    func bodyBytesOnTheWire() -> Int64 {
        var value: curl_off_t = 0
        ccurl_easy_getinfo_off(easy, CURLINFO_SIZE_DOWNLOAD_T, &value)
        return Int64(value)
    }

    /// Phase timings of the finished transfer.
    func timings() -> PhaseTimings {
        func time(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            ccurl_easy_getinfo_off(easy, info, &value)
            return Int64(value)
        }
        var connects = 0
        ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        return PhaseTimings(nameLookup: time(CURLINFO_NAMELOOKUP_TIME_T), connect: time(CURLINFO_CONNECT_TIME_T),
                            appConnect: time(CURLINFO_APPCONNECT_TIME_T), preTransfer: time(CURLINFO_PRETRANSFER_TIME_T),
                            startTransfer: time(CURLINFO_STARTTRANSFER_TIME_T), total: time(CURLINFO_TOTAL_TIME_T),
                            reusedConnection: connects == 0)
    }

    /// The connection the transfer used, nil when it never had one (read before the handle goes).
    func connection() -> TransferConnection? {
        var local = 0, remote = 0
        var address: UnsafeMutablePointer<CChar>?
        ccurl_easy_getinfo_long(easy, CURLINFO_LOCAL_PORT, &local)
        ccurl_easy_getinfo_long(easy, CURLINFO_PRIMARY_PORT, &remote)
        ccurl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address)
        guard local > 0, remote > 0, let address, address.pointee != 0 else { return nil }
        return TransferConnection(localPort: local, remoteAddress: String(cString: address), remotePort: remote)
    }

    /// Hands the easy handle back, for another transfer, and frees the rest (after it left the multi handle).
    func detachHandle() -> OpaquePointer? {
        let handle = easy
        easy = nil
        close()
        return handle
    }

    /// Frees the easy handle and its header list (after it left the multi handle).
    func close() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer?.deallocate()
        errorBuffer = nil
    }

    deinit { close() }
}
