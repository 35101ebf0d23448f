#ifndef CTLS_H
#define CTLS_H
#include <stddef.h>
#include <sys/types.h>

// A small shim over OpenSSL 3 for the proxy's TLS interception: a local CA, per-host leaf certificates
// minted on the fly, and server-side TLS sessions on non-blocking sockets driven by a poll() loop.
//
// Threading: a ctls_ca (and the contexts made from it) is meant to be used from one thread at a time.
// Sessions may be driven from any thread, one thread per session at a time.
// SIGPIPE: sessions write with send(..., MSG_NOSIGNAL), so a peer that has gone never raises SIGPIPE.
// Errors: functions taking `error`/`error_len` write a NUL-terminated message there on failure
// (`error` may be NULL). OpenSSL's per-thread error queue is left empty after every call.

typedef struct ctls_ca ctls_ca;           // a loaded CA: key + certificate (+ the shared leaf key)
typedef struct ctls_context ctls_context; // a server TLS context presenting a leaf certificate for one host
typedef struct ctls_session ctls_session; // one TLS connection on a socket fd (the server's or the client's side)
typedef struct ctls_client ctls_client;   // client settings: whom to trust, whether to verify

// Result codes shared by ctls_handshake, ctls_read and ctls_write.
enum { CTLS_WANT_READ = -2, CTLS_WANT_WRITE = -3, CTLS_ERROR = -1, CTLS_CLOSED = 0 };

// Creates a CA (EC P-256, self-signed, CN=common_name, 10 years) as new PEM files (mode 0600; fails if either exists); 0 or -1.
int ctls_ca_create(const char *key_path, const char *cert_path, const char *common_name, char *error, size_t error_len);
// Loads a CA key and certificate from PEM files (the key must match and the certificate must be a CA); NULL on failure.
ctls_ca *ctls_ca_load(const char *key_path, const char *cert_path, char *error, size_t error_len);
// Frees a CA (contexts made from it stay valid).
void ctls_ca_free(ctls_ca *ca);
// SHA-256 fingerprint of the CA certificate as "AB:CD:..." (95 characters + NUL: out_len >= 96, else truncated).
void ctls_ca_fingerprint(const ctls_ca *ca, char *out, size_t out_len);

// A server context (TLS 1.2+, ALPN h2 preferred, then http/1.1) presenting a new leaf for `host` (DNS name, IPv4 or [IPv6] literal) + the CA; NULL on failure.
ctls_context *ctls_context_for_host(ctls_ca *ca, const char *host, char *error, size_t error_len);
// Frees a context (sessions made from it stay valid).
void ctls_context_free(ctls_context *context);

// Server side of one connection on a non-blocking socket fd; the session does not own or close fd. NULL on failure.
ctls_session *ctls_session_new(ctls_context *context, int fd);
// Client settings: trust the CA certificates in `ca_file` (NULL: the system's), or verify nothing when
// `insecure`; TLS 1.2+, ALPN http/1.1. NULL on failure.
ctls_client *ctls_client_new(const char *ca_file, int insecure, char *error, size_t error_len);
void ctls_client_free(ctls_client *client);
// Client side of one connection on a non-blocking socket fd to `host` (a name gets SNI; the certificate
// must name `host`, a name or an IP literal, unless insecure); the handshake runs in the first
// ctls_handshake / ctls_read / ctls_write. The session does not own fd. NULL on failure.
ctls_session *ctls_session_connect(ctls_client *client, int fd, const char *host);

// 1 when the handshake is done; CTLS_WANT_READ / CTLS_WANT_WRITE to retry when the fd is ready; CTLS_ERROR.
int ctls_handshake(ctls_session *session);
// > 0 bytes read; CTLS_CLOSED on close_notify or EOF; CTLS_WANT_READ / CTLS_WANT_WRITE; CTLS_ERROR.
long ctls_read(ctls_session *session, void *buffer, size_t length);
// > 0 bytes written (possibly fewer than length; retry with the rest); 0 when length is 0; CTLS_WANT_READ / CTLS_WANT_WRITE; CTLS_ERROR.
long ctls_write(ctls_session *session, const void *buffer, size_t length);
// Bytes already decrypted and buffered in the session: read them without waiting for the fd to become readable.
int ctls_pending(ctls_session *session);
// 1 when the client negotiated ALPN "h2" (it speaks HTTP/2 next), else 0 (HTTP/1.x).
int ctls_session_alpn_h2(ctls_session *session);
// The last error of this session (for NULL: of this thread's last failed ctls_session_new) as text, e.g. "tlsv1 alert unknown ca".
void ctls_session_error(ctls_session *session, char *out, size_t out_len);
// Sends close_notify (best effort, non-blocking, skipped after a fatal error) and frees; call before closing fd.
void ctls_session_free(ctls_session *session);

// A message digest ("md5", "sha1", "sha224", "sha256", "sha384", "sha512") of `data`, keyed as an
// HMAC when `key` is not NULL, into `out` (at least 64 bytes); its length, or -1 for an unknown algorithm.
int ctls_digest(const char *algorithm, const unsigned char *key, size_t key_len, const unsigned char *data, size_t data_len,
                unsigned char *out);

#endif
