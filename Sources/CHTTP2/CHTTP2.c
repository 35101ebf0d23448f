#include "CHTTP2.h"

#include <nghttp2/nghttp2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Header blocks larger than this are cut: the request is said to be oversized (a 431), not read on.
enum { MAX_HEADER_BLOCK = 64 << 10 };
// The frames waiting to be written are filled to about this much at a time.
enum { OUTPUT_FILL = 256 << 10 };

typedef struct { size_t name_offset, name_length, value_offset, value_length; } field_offsets;

// A byte buffer that grows; `start` is where its unread bytes begin.
typedef struct { uint8_t *bytes; size_t start, length, capacity; } buffer;

static int buffer_append(buffer *b, const uint8_t *bytes, size_t length) {
    if (length == 0) return 0;
    if (b->start > 0 && b->start + b->length + length > b->capacity) {
        memmove(b->bytes, b->bytes + b->start, b->length);
        b->start = 0;
    }
    if (b->length + length > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->length + length) capacity *= 2;
        uint8_t *grown = realloc(b->bytes, capacity);
        if (grown == NULL) return -1;
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->start + b->length, bytes, length);
    b->length += length;
    return 0;
}

static void buffer_drop(buffer *b, size_t count) {
    if (count >= b->length) { b->start = 0; b->length = 0; return; }
    b->start += count;
    b->length -= count;
}

// One stream: the header block being read, and the response body waiting for the window.
typedef struct stream_state {
    struct stream_state *previous, *next; // the server's open streams
    buffer fields;            // names and values of the block being read
    field_offsets *offsets;
    size_t count, capacity;
    int oversized;
    buffer body;              // response bytes not yet taken by nghttp2
    int responded, finished, deferred;
} stream_state;

typedef struct event_node {
    struct event_node *next;
    ch2_event event;
    ch2_header *headers;
    uint8_t *bytes;
} event_node;

struct ch2_server {
    nghttp2_session *session;
    stream_state *streams;
    event_node *head, *tail;
    event_node *taken;        // the event last returned, freed at the next call
    buffer output;
    int fatal;
    char error[256];
};

static void stream_free(stream_state *s) {
    if (s == NULL) return;
    free(s->fields.bytes);
    free(s->offsets);
    free(s->body.bytes);
    free(s);
}

static void event_free(event_node *node) {
    if (node == NULL) return;
    free(node->headers);
    free(node->bytes);
    free(node);
}

static void release_taken(ch2_server *server) {
    event_free(server->taken);
    server->taken = NULL;
}

static event_node *enqueue(ch2_server *server, int kind, int32_t stream_id) {
    event_node *node = calloc(1, sizeof *node);
    if (node == NULL) return NULL;
    node->event.kind = kind;
    node->event.stream_id = stream_id;
    if (server->tail) server->tail->next = node; else server->head = node;
    server->tail = node;
    return node;
}

// Moves the stream's header block into `node` (which then owns its bytes).
static int take_fields(stream_state *s, event_node *node) {
    if (s->count > 0) {
        node->headers = calloc(s->count, sizeof *node->headers);
        if (node->headers == NULL) return -1;
    }
    node->bytes = s->fields.bytes;
    for (size_t i = 0; i < s->count; i++) {
        node->headers[i].name = node->bytes + s->offsets[i].name_offset;
        node->headers[i].name_length = s->offsets[i].name_length;
        node->headers[i].value = node->bytes + s->offsets[i].value_offset;
        node->headers[i].value_length = s->offsets[i].value_length;
    }
    node->event.headers = node->headers;
    node->event.header_count = s->count;
    node->event.error_code = s->oversized ? 1 : 0;
    memset(&s->fields, 0, sizeof s->fields);
    s->count = 0;
    s->oversized = 0;
    return 0;
}

static void unlink_stream(ch2_server *server, stream_state *s) {
    if (s->previous) s->previous->next = s->next; else server->streams = s->next;
    if (s->next) s->next->previous = s->previous;
}

static int on_begin_headers(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
    ch2_server *server = user_data;
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    stream_state *s = calloc(1, sizeof *s);
    if (s == NULL) return NGHTTP2_ERR_CALLBACK_FAILURE;
    if (nghttp2_session_set_stream_user_data(session, frame->hd.stream_id, s) != 0) {
        free(s);
        return NGHTTP2_ERR_CALLBACK_FAILURE;
    }
    s->next = server->streams;
    if (server->streams) server->streams->previous = s;
    server->streams = s;
    return 0;
}

static int on_header(nghttp2_session *session, const nghttp2_frame *frame, const uint8_t *name, size_t name_length,
                     const uint8_t *value, size_t value_length, uint8_t flags, void *user_data) {
    (void)flags; (void)user_data;
    stream_state *s = nghttp2_session_get_stream_user_data(session, frame->hd.stream_id);
    if (s == NULL || s->oversized) return 0;
    if (s->fields.length + name_length + value_length > MAX_HEADER_BLOCK) { s->oversized = 1; return 0; }
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? s->capacity * 2 : 16;
        field_offsets *grown = realloc(s->offsets, capacity * sizeof *grown);
        if (grown == NULL) return NGHTTP2_ERR_CALLBACK_FAILURE;
        s->offsets = grown;
        s->capacity = capacity;
    }
    field_offsets *f = &s->offsets[s->count];
    f->name_offset = s->fields.length;
    f->name_length = name_length;
    f->value_offset = s->fields.length + name_length;
    f->value_length = value_length;
    if (buffer_append(&s->fields, name, name_length) != 0 || buffer_append(&s->fields, value, value_length) != 0) {
        return NGHTTP2_ERR_CALLBACK_FAILURE;
    }
    s->count++;
    return 0;
}

static int on_frame_recv(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
    ch2_server *server = user_data;
    int32_t id = frame->hd.stream_id;
    int ends = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    switch (frame->hd.type) {
    case NGHTTP2_HEADERS: {
        stream_state *s = nghttp2_session_get_stream_user_data(session, id);
        if (s == NULL) return 0;
        int request = frame->headers.cat == NGHTTP2_HCAT_REQUEST;
        event_node *node = enqueue(server, request ? CH2_EVENT_REQUEST : CH2_EVENT_END, id);
        if (node == NULL || take_fields(s, node) != 0) return NGHTTP2_ERR_CALLBACK_FAILURE;
        node->event.end_stream = ends;
        if (!request) node->event.error_code = 0;
        return 0;
    }
    case NGHTTP2_DATA:
        if (ends && enqueue(server, CH2_EVENT_END, id) == NULL) return NGHTTP2_ERR_CALLBACK_FAILURE;
        return 0;
    default:
        return 0;
    }
}

static int on_data_chunk(nghttp2_session *session, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t length,
                         void *user_data) {
    (void)session; (void)flags;
    ch2_server *server = user_data;
    event_node *node = enqueue(server, CH2_EVENT_DATA, stream_id);
    if (node == NULL) return NGHTTP2_ERR_CALLBACK_FAILURE;
    node->bytes = malloc(length ? length : 1);
    if (node->bytes == NULL) return NGHTTP2_ERR_CALLBACK_FAILURE;
    memcpy(node->bytes, data, length);
    node->event.data = node->bytes;
    node->event.length = length;
    return 0;
}

static int on_stream_close(nghttp2_session *session, int32_t stream_id, uint32_t error_code, void *user_data) {
    ch2_server *server = user_data;
    stream_state *s = nghttp2_session_get_stream_user_data(session, stream_id);
    if (s == NULL) return 0; // a stream refused before its head was read: nothing was told of it
    nghttp2_session_set_stream_user_data(session, stream_id, NULL);
    unlink_stream(server, s);
    stream_free(s);
    event_node *node = enqueue(server, CH2_EVENT_CLOSED, stream_id);
    if (node == NULL) return NGHTTP2_ERR_CALLBACK_FAILURE;
    node->event.error_code = error_code;
    return 0;
}

static ssize_t read_body(nghttp2_session *session, int32_t stream_id, uint8_t *into, size_t length, uint32_t *data_flags,
                         nghttp2_data_source *source, void *user_data) {
    (void)session; (void)stream_id; (void)user_data;
    stream_state *s = source->ptr;
    size_t n = s->body.length < length ? s->body.length : length;
    if (n > 0) {
        memcpy(into, s->body.bytes + s->body.start, n);
        buffer_drop(&s->body, n);
    }
    if (s->body.length == 0 && s->finished) {
        *data_flags |= NGHTTP2_DATA_FLAG_EOF;
    } else if (n == 0) {
        s->deferred = 1;
        return NGHTTP2_ERR_DEFERRED;
    }
    return (ssize_t)n;
}

static void set_error(ch2_server *server, const char *what, int code) {
    snprintf(server->error, sizeof server->error, "%s: %s", what, nghttp2_strerror(code));
}

ch2_server *ch2_server_new(uint32_t max_concurrent_streams) {
    ch2_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    nghttp2_session_callbacks *callbacks = NULL;
    nghttp2_option *option = NULL;
    if (nghttp2_session_callbacks_new(&callbacks) != 0 || nghttp2_option_new(&option) != 0) goto fail;
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, on_header);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame_recv);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data_chunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, on_stream_close);
    nghttp2_option_set_max_settings(option, 32); // entries in one SETTINGS frame
    int status = nghttp2_session_server_new2(&server->session, callbacks, server, option);
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_option_del(option);
    callbacks = NULL;
    option = NULL;
    if (status != 0) goto fail;
    nghttp2_settings_entry settings[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, max_concurrent_streams},
        {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
        {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, MAX_HEADER_BLOCK},
    };
    if (nghttp2_submit_settings(server->session, NGHTTP2_FLAG_NONE, settings, sizeof settings / sizeof settings[0]) != 0) goto fail;
    return server;
fail:
    if (callbacks) nghttp2_session_callbacks_del(callbacks);
    if (option) nghttp2_option_del(option);
    ch2_server_free(server);
    return NULL;
}

void ch2_server_free(ch2_server *server) {
    if (server == NULL) return;
    if (server->session) nghttp2_session_del(server->session); // (calls no stream-close callback)
    for (stream_state *s = server->streams; s;) { // the streams still open
        stream_state *next = s->next;
        stream_free(s);
        s = next;
    }
    release_taken(server);
    for (event_node *node = server->head; node;) {
        event_node *next = node->next;
        event_free(node);
        node = next;
    }
    free(server->output.bytes);
    free(server);
}

// Moves the frames nghttp2 has ready into the output buffer, up to OUTPUT_FILL.
static void fill_output(ch2_server *server) {
    while (server->output.length < OUTPUT_FILL) {
        const uint8_t *frame = NULL;
        ssize_t n = nghttp2_session_mem_send(server->session, &frame);
        if (n < 0) {
            if (!server->fatal) set_error(server, "cannot write to the client's HTTP/2 connection", (int)n);
            server->fatal = 1;
            return;
        }
        if (n == 0) return;
        if (buffer_append(&server->output, frame, (size_t)n) != 0) {
            server->fatal = 1;
            snprintf(server->error, sizeof server->error, "out of memory");
            return;
        }
    }
}

// Bytes are read in pieces of this size, the frames they call for queued after each: a GOAWAY
// nghttp2 decides on (a reset storm) is sent before the next piece, and streams after it are refused.
enum { FEED_PIECE = 16 << 10 };

int ch2_server_feed(ch2_server *server, const uint8_t *bytes, size_t length) {
    release_taken(server);
    for (size_t at = 0; at < length;) {
        if (server->fatal) return NGHTTP2_ERR_EOF;
        size_t piece = length - at < FEED_PIECE ? length - at : FEED_PIECE;
        ssize_t used = nghttp2_session_mem_recv(server->session, bytes + at, piece);
        if (used < 0) {
            server->fatal = 1;
            set_error(server, "the client's HTTP/2 connection failed", (int)used);
            uint32_t code = used == NGHTTP2_ERR_FLOODED ? NGHTTP2_ENHANCE_YOUR_CALM
                          : used == NGHTTP2_ERR_BAD_CLIENT_MAGIC ? NGHTTP2_PROTOCOL_ERROR : NGHTTP2_INTERNAL_ERROR;
            nghttp2_session_terminate_session(server->session, code); // best effort: a GOAWAY saying why
            return (int)used;
        }
        at += piece;
        fill_output(server);
    }
    return 0;
}

int ch2_server_next_event(ch2_server *server, ch2_event *event) {
    release_taken(server);
    event_node *node = server->head;
    if (node == NULL) return 0;
    server->head = node->next;
    if (server->head == NULL) server->tail = NULL;
    server->taken = node;
    *event = node->event;
    return 1;
}

static nghttp2_nv *name_values(const ch2_header *headers, size_t count) {
    nghttp2_nv *nva = calloc(count ? count : 1, sizeof *nva);
    if (nva == NULL) return NULL;
    for (size_t i = 0; i < count; i++) {
        nva[i].name = (uint8_t *)headers[i].name;
        nva[i].namelen = headers[i].name_length;
        nva[i].value = (uint8_t *)headers[i].value;
        nva[i].valuelen = headers[i].value_length;
        nva[i].flags = NGHTTP2_NV_FLAG_NONE;
    }
    return nva;
}

int ch2_server_respond(ch2_server *server, int32_t stream_id, const ch2_header *headers, size_t count, int interim) {
    release_taken(server);
    stream_state *s = nghttp2_session_get_stream_user_data(server->session, stream_id);
    if (s == NULL || s->responded) return NGHTTP2_ERR_INVALID_ARGUMENT;
    nghttp2_nv *nva = name_values(headers, count);
    if (nva == NULL) return NGHTTP2_ERR_NOMEM;
    int status;
    if (interim) {
        status = nghttp2_submit_headers(server->session, NGHTTP2_FLAG_NONE, stream_id, NULL, nva, count, NULL);
    } else {
        nghttp2_data_provider provider = {.source = {.ptr = s}, .read_callback = read_body};
        status = nghttp2_submit_response(server->session, stream_id, nva, count, &provider);
        if (status == 0) s->responded = 1;
    }
    free(nva);
    if (status < 0) set_error(server, "cannot send the response", status);
    return status < 0 ? status : 0;
}

static void resume(ch2_server *server, int32_t stream_id, stream_state *s) {
    if (!s->deferred || !s->responded) return;
    s->deferred = 0;
    nghttp2_session_resume_data(server->session, stream_id);
}

int ch2_server_append(ch2_server *server, int32_t stream_id, const uint8_t *bytes, size_t length) {
    release_taken(server);
    stream_state *s = nghttp2_session_get_stream_user_data(server->session, stream_id);
    if (s == NULL || s->finished) return NGHTTP2_ERR_INVALID_ARGUMENT;
    if (buffer_append(&s->body, bytes, length) != 0) return NGHTTP2_ERR_NOMEM;
    resume(server, stream_id, s);
    return 0;
}

int ch2_server_finish(ch2_server *server, int32_t stream_id) {
    release_taken(server);
    stream_state *s = nghttp2_session_get_stream_user_data(server->session, stream_id);
    if (s == NULL || !s->responded) return NGHTTP2_ERR_INVALID_ARGUMENT;
    s->finished = 1;
    resume(server, stream_id, s);
    return 0;
}

size_t ch2_server_buffered(ch2_server *server, int32_t stream_id) {
    stream_state *s = nghttp2_session_get_stream_user_data(server->session, stream_id);
    return s == NULL ? 0 : s->body.length;
}

int ch2_server_reset(ch2_server *server, int32_t stream_id, uint32_t error_code) {
    release_taken(server);
    return nghttp2_submit_rst_stream(server->session, NGHTTP2_FLAG_NONE, stream_id, error_code);
}

int ch2_server_goaway(ch2_server *server, uint32_t error_code) {
    release_taken(server);
    return nghttp2_session_terminate_session(server->session, error_code);
}

size_t ch2_server_output(ch2_server *server, const uint8_t **bytes) {
    release_taken(server);
    fill_output(server);
    *bytes = server->output.bytes + server->output.start;
    return server->output.length;
}

void ch2_server_wrote(ch2_server *server, size_t count) {
    buffer_drop(&server->output, count);
}

int ch2_server_is_open(ch2_server *server) {
    if (server->output.length > 0) return 1;
    if (server->fatal) return 0;
    return nghttp2_session_want_read(server->session) || nghttp2_session_want_write(server->session);
}

const char *ch2_server_error(const ch2_server *server) { return server->error; }
