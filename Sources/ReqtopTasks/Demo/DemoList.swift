/// The demo's request list, built into the program so `reqtop demo` works from any copy of the
/// binary. `Resources/demo.http` is the readable copy; a test checks that the two are identical.
package enum DemoList {
    package static let text = #"""
# reqtop demo: replayed by `reqtop demo` against the embedded test server, which passes
# --var base=http://127.0.0.1:PORT. Each request shows off one part of a task's lifecycle.

### first
# A plain GET; the chained request at the end uses the `url` field of its JSON response.
GET {{base}}/get?demo=first
Accept: application/json

### redirects
# Three redirects, then /get: the timeline shows each hop.
GET {{base}}/redirect/3

### slow-drip
# 2000 bytes dripped over about 6 seconds: watch the progress bar.
GET {{base}}/drip?numbytes=2000&duration=6

### live-events
# 40 server-sent events over 10 seconds: open it (Enter) and press 8 for the Stream tab, which
# lists each event as it arrives; the PROGRESS column counts them.
GET {{base}}/sse?count=40&interval=0.25

### large-download
# 200 MB at 10 MB/s: select it and press s to suspend (the bytes stop), s again to resume.
# Past 8 MB the body goes to a temporary file, so memory stays flat.
GET {{base}}/bytes/200000000?rate=10000000

### post-json
# A POST with a JSON body; the server echoes it back.
POST {{base}}/post
Content-Type: application/json

{"tool": "reqtop", "demo": true, "items": [1, 2, 3]}

### not-found
# Completes with HTTP 404 (a response is not a failure).
GET {{base}}/status/404

### timeout
# The server waits 5 s; the request gives up after 1 s.
# @timeout 1
GET {{base}}/delay/5

### refused
# Nothing listens on port 1: the connection is refused.
GET http://127.0.0.1:1/

### chained
# Waits for "first" and sends the url from its response.
POST {{base}}/anything/chained
Content-Type: application/json

{"previous": "{{first.response.body.$.url}}"}

### escape-sequences
# Headers and body full of escape sequences, an OSC title and U+202E: shown sanitized.
GET {{base}}/fault/escape

"""#
}
