/// The plain-text index served at `/`.
package enum EndpointIndex {
    /// One line per endpoint: path and what it does.
    package static let text = """
    reqtop test server: httpbin-compatible endpoints plus fault injection

    GET  /get                              echo args, headers, origin, url as JSON
    GET  /headers                          echo request headers as JSON
    ANY  /echo/head                        the request head exactly as received, line by line (text/plain)
    ANY  /status/{code}                    respond with status code (200-599), empty body
    GET  /bytes/{n}?seed=                  n deterministic bytes (SplitMix64 from seed), streamed, Content-Length
    GET  /stream-bytes/{n}?chunk_size=&seed=   the same bytes with chunked transfer encoding
    GET  /drip?numbytes=&duration=&delay=&code=   numbytes '*' spread over duration s after delay s
    ANY  /delay/{seconds}                  wait (fractional) seconds, then /get-like JSON
    GET  /redirect/{n}?absolute=           302 chain /redirect/{n-1} ... /get (relative Location)
    ANY  /redirect-to?url=&status_code=    redirect to url (status 3xx, default 302)
    POST /post  PUT /put  PATCH /patch  DELETE /delete   echo method, url, args, headers, data, json, form,
                                           body_size and sha256 of the body as JSON
    ANY  /anything                         the same echo for any method and path below it
    GET  /gzip                             gzip-encoded JSON
    GET  /html  /xml                       a small HTML page and an XML document (httpbin's kind)
    GET  /json                             JSON with members out of order, empty and nested containers
    GET  /ndjson?count=&interval=          count (5) lines of newline-delimited JSON, one every interval (0) s, chunked
    GET  /sse?count=&interval=&event=&size=   count (10) server-sent events (id, event: tick, JSON data), one every
                                           interval (0.5) s, chunked; size pads each event's data to that many bytes
    GET  /basic-auth/{user}/{passwd}       200 with the right Basic credentials, else 401 + WWW-Authenticate
    GET  /cookies                          echo request cookies as JSON
    GET  /cookies/set?name=value           Set-Cookie each pair, then 302 to /cookies
    GET  /cookies/delete?name              expire each named cookie, then 302 to /cookies

    faults:
    GET  /fault/reset?after=N              announce a larger Content-Length, send N body bytes (default 1024), then TCP reset
    GET  /fault/stall?seconds=S            read the request, send nothing for S seconds (default 3600), then close
    GET  /fault/truncated-chunked          chunked body that ends without the terminating 0-size chunk
    GET  /fault/bad-status                 malformed status line: HTTP/1.1 abc Broken
    GET  /fault/huge-header                a response header (X-Huge) of 1 MiB
    GET  /fault/escape                     header values and text/plain body with ESC/CSI, OSC title, U+202E, bytes FF FE
    GET  /fault/drip-forever               200 without Content-Length, one byte every 100 ms until the client leaves
    GET  /fault/slow-head?interval=S       a 40-byte response head sent one byte every S seconds (default 1), then "ok"

    """
}
