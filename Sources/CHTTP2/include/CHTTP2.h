#ifndef CHTTP2_H
#define CHTTP2_H
#include <stddef.h>
#include <stdint.h>

// The server side of one HTTP/2 connection, over nghttp2 (Debian: libnghttp2-dev), for the proxy:
// bytes read from the client go in (`ch2_server_feed`), what they mean comes out as a queue of events
// (a request's head, body bytes, its end, a stream's close), responses go in by stream, and the frames
// to write come out (`ch2_server_output`). No socket, no thread: the caller owns both.
//
// Threading: a server is used from one thread at a time.
// Memory: each stream's response bytes wait in a buffer of its own until the client's flow-control
// window takes them (`ch2_server_buffered` says how many, for back-pressure); the frames waiting to be
// written are filled to about 256 KB at a time, so a client that does not read gets no more
// (and nghttp2 ends the connection when it floods it with frames to acknowledge).
// Protections (nghttp2's): at most `max_concurrent_streams` open streams, a RST_STREAM rate limit
// (rapid reset: a burst of 1000, then 33 a second), at most 8 CONTINUATION frames per header block, header lists of at most 64 KB,
// and a bound on unacknowledged SETTINGS and PING.

typedef struct ch2_server ch2_server;

/// One header field (pseudo-header fields first, as received). Not NUL-terminated.
typedef struct {
    const uint8_t *name;
    size_t name_length;
    const uint8_t *value;
    size_t value_length;
} ch2_header;

enum {
    /// A request's header block: `headers`, and `end_stream` when no body follows.
    CH2_EVENT_REQUEST = 1,
    /// Body bytes of a request: `data`, `length`.
    CH2_EVENT_DATA = 2,
    /// The request's end (after its body, or its trailer block: `headers`, which are not its head).
    CH2_EVENT_END = 3,
    /// The stream closed: `error_code` 0 when both sides ended it, else how (RST_STREAM's code).
    CH2_EVENT_CLOSED = 4,
};

typedef struct {
    int kind;
    int32_t stream_id;
    uint32_t error_code;
    int end_stream;
    const ch2_header *headers;
    size_t header_count;
    const uint8_t *data;
    size_t length;
} ch2_event;

/// A server that has queued its SETTINGS (at most `max_concurrent_streams` open streams); NULL on failure.
ch2_server *ch2_server_new(uint32_t max_concurrent_streams);
void ch2_server_free(ch2_server *server);

/// Feeds bytes read from the client. 0, or a negative nghttp2 error (the connection is then over;
/// `ch2_server_error` says why and a GOAWAY may still be waiting in the output).
int ch2_server_feed(ch2_server *server, const uint8_t *bytes, size_t length);
/// The next event, 1; 0 when none is queued. Its pointers stay valid until the next call on `server`.
int ch2_server_next_event(ch2_server *server, ch2_event *event);

/// Starts the response of `stream_id` (the fields include `:status`); its body follows with
/// `ch2_server_append` and ends with `ch2_server_finish`. An interim response (`:status` 1xx) is sent
/// as a header block of its own and leaves the stream waiting for the final one. 0 or a negative error.
int ch2_server_respond(ch2_server *server, int32_t stream_id, const ch2_header *headers, size_t count, int interim);
/// Appends response body bytes to the stream's buffer. 0, or a negative error (the stream is gone).
int ch2_server_append(ch2_server *server, int32_t stream_id, const uint8_t *bytes, size_t length);
/// Ends the response body (END_STREAM after what is buffered). 0 or a negative error.
int ch2_server_finish(ch2_server *server, int32_t stream_id);
/// Response bytes of the stream still waiting for the client's window; 0 for a closed stream.
size_t ch2_server_buffered(ch2_server *server, int32_t stream_id);
/// Resets the stream with `error_code` (e.g. 2, INTERNAL_ERROR). 0 or a negative error.
int ch2_server_reset(ch2_server *server, int32_t stream_id, uint32_t error_code);
/// Sends GOAWAY (`error_code`, 0 for a graceful end) and ends the session once the output is written.
int ch2_server_goaway(ch2_server *server, uint32_t error_code);

/// Frames ready to be written: their bytes (valid until the next call on `server`) and how many;
/// call `ch2_server_wrote` with how many were written. 0 when nothing waits.
size_t ch2_server_output(ch2_server *server, const uint8_t **bytes);
void ch2_server_wrote(ch2_server *server, size_t count);
/// 1 while the session still reads or writes; 0 when it is over and everything was written.
int ch2_server_is_open(ch2_server *server);
/// Why the session ended or a call failed, as text; "" when it did not.
const char *ch2_server_error(const ch2_server *server);

#endif
