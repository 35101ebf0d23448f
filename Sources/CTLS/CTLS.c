// A small shim over OpenSSL 3 for the proxy's TLS interception (see include/CTLS.h).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CTLS.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

struct ctls_ca {
    EVP_PKEY *key;      // the CA's private key
    X509 *cert;         // the CA's certificate
    EVP_PKEY *leaf_key; // one EC P-256 key shared by every leaf, made on first use
};

struct ctls_context {
    SSL_CTX *ctx;
};

struct ctls_session {
    SSL *ssl;
    int failed;       // a fatal error happened: no close_notify may be sent
    char error[256];  // text of the last error, "" when none
};

// Text of the last failing ctls_session_new on this thread (there is no session to hold it).
static _Thread_local char thread_error[256];

enum { SERIAL_BITS = 128, LEAF_DAYS = 365, CA_DAYS = 3652, CN_MAX = 64, DNS_NAME_MAX = 253 };

// MARK: - Errors

// Describes OpenSSL's most recent queued error as its reason text (e.g. "tlsv1 alert unknown ca"), or "" when the queue is empty.
static void describe_openssl_error(char *out, size_t out_len) {
    unsigned long code = ERR_peek_last_error();
    if (out == NULL || out_len == 0) return;
    out[0] = '\0';
    if (code == 0) return;
    const char *reason = ERR_reason_error_string(code);
    if (reason != NULL) snprintf(out, out_len, "%s", reason);
    else ERR_error_string_n(code, out, out_len);
}

// Writes "what: cause" into error, the cause being strerror(errnum) when errnum != 0, else OpenSSL's queued error; empties the queue.
__attribute__((format(printf, 4, 5)))
static void fail(char *error, size_t error_len, int errnum, const char *format, ...) {
    if (error != NULL && error_len > 0) {
        char what[1024];
        char cause[256];
        va_list args;
        va_start(args, format);
        vsnprintf(what, sizeof what, format, args);
        va_end(args);
        if (errnum != 0) snprintf(cause, sizeof cause, "%s", strerror(errnum));
        else describe_openssl_error(cause, sizeof cause);
        if (cause[0] != '\0') snprintf(error, error_len, "%s: %s", what, cause);
        else snprintf(error, error_len, "%s", what);
    }
    ERR_clear_error();
}

// MARK: - Certificates

// A new EC P-256 key pair (named curve), or NULL.
static EVP_PKEY *new_ec_key(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

// The digest to sign with `key`: SHA-256, or NULL for keys that take none (Ed25519, Ed448).
static const EVP_MD *signing_digest(EVP_PKEY *key) {
    int nid = NID_undef;
    if (EVP_PKEY_get_default_digest_nid(key, &nid) == 2 && nid == NID_undef) return NULL;
    return EVP_sha256();
}

// Sets a random positive serial number of exactly `SERIAL_BITS` bits; 1 or 0.
static int set_random_serial(X509 *cert) {
    BIGNUM *bn = BN_new();
    int ok = bn != NULL && BN_rand(bn, SERIAL_BITS, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) == 1 &&
             BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert)) != NULL;
    BN_free(bn);
    return ok;
}

// Sets notBefore = now - 1 day and notAfter = notBefore + days; 1 or 0.
static int set_validity(X509 *cert, int days) {
    return X509_gmtime_adj(X509_getm_notBefore(cert), -86400L) != NULL &&
           X509_time_adj_ex(X509_getm_notAfter(cert), days - 1, 0, NULL) != NULL;
}

// Sets the subject to CN=common_name (UTF-8, cut to at most CN_MAX bytes at a character boundary); 1 or 0.
static int set_subject_cn(X509 *cert, const char *common_name) {
    X509_NAME *name = X509_get_subject_name(cert);
    size_t length = strlen(common_name);
    if (length > CN_MAX) {
        length = CN_MAX;
        while (length > 0 && ((unsigned char)common_name[length] & 0xC0) == 0x80) length--;
    }
    return X509_NAME_add_entry_by_NID(name, NID_commonName, MBSTRING_UTF8, (const unsigned char *)common_name,
                                      (int)length, -1, 0) == 1;
}

// Adds one extension given in openssl.cnf syntax (e.g. "critical,CA:TRUE"); 1 or 0.
static int add_extension(X509 *cert, X509V3_CTX *ctx, int nid, const char *value) {
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, ctx, nid, value);
    if (extension == NULL) return 0;
    int ok = X509_add_ext(cert, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return ok;
}

// Writes all of data to a new file (O_EXCL, O_NOFOLLOW, mode 0600); 0, or -1 with errno set (the file is removed).
static int write_new_file(const char *path, const char *data, size_t length) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    int ok = fchmod(fd, 0600) == 0; // independent of the umask
    while (ok && length > 0) {
        ssize_t written = write(fd, data, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) { ok = 0; break; }
        data += written;
        length -= (size_t)written;
    }
    if (ok) ok = fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok) { ok = 0; saved = errno; }
    if (!ok) {
        unlink(path);
        errno = saved != 0 ? saved : EIO;
        return -1;
    }
    return 0;
}

// Writes a private key (is_key) or a certificate as PEM into a new file; 0 or -1 (with a message).
static int write_pem_file(const char *path, int is_key, void *object, char *error, size_t error_len) {
    BIO *memory = BIO_new(BIO_s_mem());
    if (memory == NULL) { fail(error, error_len, 0, "cannot allocate a buffer"); return -1; }
    int ok = is_key ? PEM_write_bio_PrivateKey(memory, object, NULL, NULL, 0, NULL, NULL)
                    : PEM_write_bio_X509(memory, object);
    if (!ok) {
        fail(error, error_len, 0, "cannot encode %s", is_key ? "the CA key" : "the CA certificate");
        BIO_free(memory);
        return -1;
    }
    char *data = NULL;
    long length = BIO_get_mem_data(memory, &data);
    int result = 0;
    if (length <= 0 || write_new_file(path, data, (size_t)length) != 0) {
        fail(error, error_len, length <= 0 ? EIO : errno, "cannot write %s", path);
        result = -1;
    }
    BIO_free(memory); // BIO_free on a memory BIO clears its buffer (the key) too
    return result;
}

int ctls_ca_create(const char *key_path, const char *cert_path, const char *common_name, char *error, size_t error_len) {
    if (key_path == NULL || cert_path == NULL || common_name == NULL || common_name[0] == '\0') {
        fail(error, error_len, EINVAL, "ctls_ca_create");
        return -1;
    }
    ERR_clear_error();
    int result = -1;
    X509 *cert = NULL;
    EVP_PKEY *key = new_ec_key();
    if (key == NULL) { fail(error, error_len, 0, "cannot generate the CA key"); goto done; }
    cert = X509_new();
    if (cert == NULL) { fail(error, error_len, 0, "cannot allocate the CA certificate"); goto done; }

    X509V3_CTX ctx;
    if (X509_set_version(cert, X509_VERSION_3) != 1 || !set_random_serial(cert) || !set_validity(cert, CA_DAYS) ||
        !set_subject_cn(cert, common_name) || X509_set_issuer_name(cert, X509_get_subject_name(cert)) != 1 ||
        X509_set_pubkey(cert, key) != 1) {
        fail(error, error_len, 0, "cannot fill the CA certificate");
        goto done;
    }
    X509V3_set_ctx(&ctx, cert, cert, NULL, NULL, 0);
    // The subject key identifier first: the authority key identifier of a self-signed certificate copies it.
    if (!add_extension(cert, &ctx, NID_basic_constraints, "critical,CA:TRUE") ||
        !add_extension(cert, &ctx, NID_key_usage, "critical,keyCertSign,cRLSign") ||
        !add_extension(cert, &ctx, NID_subject_key_identifier, "hash") ||
        !add_extension(cert, &ctx, NID_authority_key_identifier, "keyid:always")) {
        fail(error, error_len, 0, "cannot add the CA certificate's extensions");
        goto done;
    }
    if (X509_sign(cert, key, signing_digest(key)) <= 0) {
        fail(error, error_len, 0, "cannot sign the CA certificate");
        goto done;
    }
    if (write_pem_file(key_path, 1, key, error, error_len) != 0) goto done;
    if (write_pem_file(cert_path, 0, cert, error, error_len) != 0) {
        unlink(key_path); // created above: leave no half CA behind
        goto done;
    }
    result = 0;
done:
    X509_free(cert);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return result;
}

// Refuses to prompt for a passphrase: encrypted keys are not supported.
static int no_passphrase(char *buffer, int size, int rwflag, void *userdata) {
    (void)buffer; (void)size; (void)rwflag; (void)userdata;
    return -1;
}

ctls_ca *ctls_ca_load(const char *key_path, const char *cert_path, char *error, size_t error_len) {
    if (key_path == NULL || cert_path == NULL) { fail(error, error_len, EINVAL, "ctls_ca_load"); return NULL; }
    ERR_clear_error();
    EVP_PKEY *key = NULL;
    X509 *cert = NULL;
    ctls_ca *ca = NULL;

    BIO *file = BIO_new_file(key_path, "r");
    if (file == NULL) { fail(error, error_len, 0, "cannot open %s", key_path); goto fail; }
    key = PEM_read_bio_PrivateKey(file, NULL, no_passphrase, NULL);
    BIO_free(file);
    if (key == NULL) { fail(error, error_len, 0, "cannot read a private key from %s", key_path); goto fail; }

    file = BIO_new_file(cert_path, "r");
    if (file == NULL) { fail(error, error_len, 0, "cannot open %s", cert_path); goto fail; }
    cert = PEM_read_bio_X509(file, NULL, no_passphrase, NULL);
    BIO_free(file);
    if (cert == NULL) { fail(error, error_len, 0, "cannot read a certificate from %s", cert_path); goto fail; }

    if (X509_check_private_key(cert, key) != 1) {
        fail(error, error_len, 0, "the CA key does not match the certificate");
        goto fail;
    }
    if (X509_check_ca(cert) == 0) {
        fail(error, error_len, 0, "%s is not a CA certificate", cert_path);
        goto fail;
    }
    ca = calloc(1, sizeof *ca);
    if (ca == NULL) { fail(error, error_len, ENOMEM, "ctls_ca_load"); goto fail; }
    ca->key = key;
    ca->cert = cert;
    ERR_clear_error();
    return ca;
fail:
    X509_free(cert);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return NULL;
}

void ctls_ca_free(ctls_ca *ca) {
    if (ca == NULL) return;
    EVP_PKEY_free(ca->leaf_key);
    EVP_PKEY_free(ca->key);
    X509_free(ca->cert);
    free(ca);
}

void ctls_ca_fingerprint(const ctls_ca *ca, char *out, size_t out_len) {
    if (out == NULL || out_len == 0) return;
    out[0] = '\0';
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_len = 0;
    if (ca == NULL || X509_digest(ca->cert, EVP_sha256(), digest, &digest_len) != 1) { ERR_clear_error(); return; }
    static const char hex[] = "0123456789ABCDEF";
    size_t at = 0;
    for (unsigned int i = 0; i < digest_len; i++) {
        size_t needed = (i > 0 ? 3 : 2) + 1; // [":"] two digits, and room for the NUL
        if (at + needed > out_len) break;
        if (i > 0) out[at++] = ':';
        out[at++] = hex[digest[i] >> 4];
        out[at++] = hex[digest[i] & 0xF];
    }
    out[at] = '\0';
}

// MARK: - Leaf certificates

// 1 when `name` is a plausible DNS name for a certificate: [A-Za-z0-9._-], 1...253 characters, no empty label.
static int is_dns_name(const char *name) {
    size_t length = strlen(name);
    if (length == 0 || length > DNS_NAME_MAX || name[0] == '.' || strstr(name, "..") != NULL) return 0;
    for (const char *c = name; *c != '\0'; c++) {
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
              *c == '.' || *c == '_')) {
            return 0;
        }
    }
    return 1;
}

// Adds the subjectAltName of `name`: one IP entry for the given address, else one DNS entry; 1 or 0.
static int add_subject_alt_name(X509 *cert, const char *name, const unsigned char *ip, int ip_len) {
    GENERAL_NAMES *names = sk_GENERAL_NAME_new_null();
    GENERAL_NAME *entry = GENERAL_NAME_new();
    ASN1_STRING *value = ASN1_STRING_type_new(ip_len > 0 ? V_ASN1_OCTET_STRING : V_ASN1_IA5STRING);
    int ok = 0;
    if (names == NULL || entry == NULL || value == NULL) goto done;
    if (ip_len > 0 ? ASN1_STRING_set(value, ip, ip_len) != 1 : ASN1_STRING_set(value, name, (int)strlen(name)) != 1) goto done;
    GENERAL_NAME_set0_value(entry, ip_len > 0 ? GEN_IPADD : GEN_DNS, value);
    value = NULL;
    if (sk_GENERAL_NAME_push(names, entry) <= 0) goto done;
    entry = NULL;
    ok = X509_add1_ext_i2d(cert, NID_subject_alt_name, names, 0, X509V3_ADD_DEFAULT) == 1;
done:
    ASN1_STRING_free(value);
    GENERAL_NAME_free(entry);
    GENERAL_NAMES_free(names);
    return ok;
}

// Normalizes `host` into name[DNS_NAME_MAX + 1]: an IPv4/IPv6 literal (IPv6 optionally in brackets) fills ip and *ip_len;
// a DNS name loses one trailing dot. 1, or 0 when host is neither.
static int parse_host(const char *host, char *name, unsigned char ip[16], int *ip_len) {
    size_t length = strlen(host);
    *ip_len = 0;
    if (length >= 2 && host[0] == '[' && host[length - 1] == ']') {
        host++;
        length -= 2;
        if (length > DNS_NAME_MAX) return 0;
        memcpy(name, host, length);
        name[length] = '\0';
        if (inet_pton(AF_INET6, name, ip) != 1) return 0;
        *ip_len = 16;
        return 1;
    }
    if (length > DNS_NAME_MAX + 1) return 0;
    memcpy(name, host, length + 1);
    if (inet_pton(AF_INET, name, ip) == 1) { *ip_len = 4; return 1; }
    if (inet_pton(AF_INET6, name, ip) == 1) { *ip_len = 16; return 1; }
    if (length > 1 && name[length - 1] == '.') name[--length] = '\0';
    return is_dns_name(name);
}

// A new leaf certificate for `host` signed by the CA, or NULL (with a message).
static X509 *new_leaf(ctls_ca *ca, const char *host, char *error, size_t error_len) {
    X509 *cert = X509_new();
    if (cert == NULL) { fail(error, error_len, 0, "cannot allocate a certificate"); return NULL; }
    X509V3_CTX ctx;
    char name[DNS_NAME_MAX + 2];
    unsigned char ip[16];
    int ip_len = 0;
    if (!parse_host(host, name, ip, &ip_len)) {
        fail(error, error_len, 0, "not a DNS name or IP address: \"%.253s\"", host);
        goto fail;
    }
    if (X509_set_version(cert, X509_VERSION_3) != 1 || !set_random_serial(cert) || !set_validity(cert, LEAF_DAYS) ||
        !set_subject_cn(cert, name) || X509_set_issuer_name(cert, X509_get_subject_name(ca->cert)) != 1 ||
        X509_set_pubkey(cert, ca->leaf_key) != 1) {
        fail(error, error_len, 0, "cannot fill the certificate for %.253s", host);
        goto fail;
    }
    if (!add_subject_alt_name(cert, name, ip, ip_len)) {
        fail(error, error_len, 0, "cannot add the subjectAltName for %.253s", host);
        goto fail;
    }
    X509V3_set_ctx(&ctx, ca->cert, cert, NULL, NULL, 0);
    if (!add_extension(cert, &ctx, NID_basic_constraints, "critical,CA:FALSE") ||
        !add_extension(cert, &ctx, NID_key_usage, "critical,digitalSignature,keyEncipherment") ||
        !add_extension(cert, &ctx, NID_ext_key_usage, "serverAuth") ||
        !add_extension(cert, &ctx, NID_subject_key_identifier, "hash") ||
        !add_extension(cert, &ctx, NID_authority_key_identifier, "keyid:always")) {
        fail(error, error_len, 0, "cannot add the extensions for %.253s", host);
        goto fail;
    }
    if (X509_sign(cert, ca->key, signing_digest(ca->key)) <= 0) {
        fail(error, error_len, 0, "cannot sign the certificate for %.253s", host);
        goto fail;
    }
    return cert;
fail:
    X509_free(cert);
    return NULL;
}

static const unsigned char http11_protocol[] = "http/1.1";
static const unsigned char h2_protocol[] = "h2";

// Finds `protocol` in a client's ALPN list (length-prefixed names); 1 and where, else 0.
static int offered(const unsigned char *in, unsigned int in_len, const unsigned char *protocol, size_t wanted,
                   const unsigned char **out, unsigned char *out_len) {
    for (unsigned int at = 0; at < in_len;) {
        unsigned int length = in[at];
        if (length == 0 || length > in_len - at - 1) return 0; // malformed list
        if (length == wanted && memcmp(in + at + 1, protocol, wanted) == 0) {
            *out = in + at + 1;
            *out_len = (unsigned char)length;
            return 1;
        }
        at += 1 + length;
    }
    return 0;
}

// ALPN: "h2" when the client offers it, else "http/1.1" when it offers that, else nothing (HTTP/1.x).
static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *out_len, const unsigned char *in,
                       unsigned int in_len, void *arg) {
    (void)ssl; (void)arg;
    if (offered(in, in_len, h2_protocol, sizeof h2_protocol - 1, out, out_len) ||
        offered(in, in_len, http11_protocol, sizeof http11_protocol - 1, out, out_len)) {
        return SSL_TLSEXT_ERR_OK;
    }
    return SSL_TLSEXT_ERR_NOACK;
}

ctls_context *ctls_context_for_host(ctls_ca *ca, const char *host, char *error, size_t error_len) {
    if (ca == NULL || host == NULL) { fail(error, error_len, EINVAL, "ctls_context_for_host"); return NULL; }
    ERR_clear_error();
    if (ca->leaf_key == NULL) {
        ca->leaf_key = new_ec_key();
        if (ca->leaf_key == NULL) { fail(error, error_len, 0, "cannot generate the leaf key"); return NULL; }
    }
    X509 *leaf = new_leaf(ca, host, error, error_len);
    if (leaf == NULL) return NULL;

    ctls_context *context = calloc(1, sizeof *context);
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (context == NULL || ctx == NULL) { fail(error, error_len, 0, "cannot allocate a TLS context"); goto fail; }
    if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) {
        fail(error, error_len, 0, "cannot set the minimum TLS version");
        goto fail;
    }
    // No renegotiation (a TLS 1.2 client could otherwise start one mid-stream); no server-side session cache
    // (one context per host would each keep up to 20k sessions; tickets still allow resumption).
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    if (SSL_CTX_use_certificate(ctx, leaf) != 1 || SSL_CTX_use_PrivateKey(ctx, ca->leaf_key) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1 || SSL_CTX_add1_chain_cert(ctx, ca->cert) != 1) {
        fail(error, error_len, 0, "cannot install the certificate for %.253s", host);
        goto fail;
    }
    SSL_CTX_set_alpn_select_cb(ctx, select_alpn, NULL);
    X509_free(leaf); // the context holds its own reference
    context->ctx = ctx;
    ERR_clear_error();
    return context;
fail:
    SSL_CTX_free(ctx);
    free(context);
    X509_free(leaf);
    ERR_clear_error();
    return NULL;
}

void ctls_context_free(ctls_context *context) {
    if (context == NULL) return;
    SSL_CTX_free(context->ctx);
    free(context);
}

// MARK: - Sessions

// A socket BIO whose writes never raise SIGPIPE: OpenSSL's own writes with write(2), which kills a
// process that has not ignored SIGPIPE when the peer is gone (a library must not rely on that).
static BIO_METHOD *nosigpipe_method;
static pthread_once_t nosigpipe_once = PTHREAD_ONCE_INIT;

static int nosigpipe_write(BIO *bio, const char *buffer, int length) {
    int fd = -1;
    BIO_get_fd(bio, &fd);
    errno = 0;
    ssize_t n = send(fd, buffer, (size_t)length, MSG_NOSIGNAL);
    BIO_clear_retry_flags(bio);
    if (n <= 0 && BIO_sock_should_retry((int)n)) BIO_set_retry_write(bio);
    return (int)n;
}

static void make_nosigpipe_method(void) {
    const BIO_METHOD *socket = BIO_s_socket();
    BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR, "reqtop socket");
    if (method == NULL) return;
    if (!BIO_meth_set_write(method, nosigpipe_write) || !BIO_meth_set_read(method, BIO_meth_get_read(socket))
        || !BIO_meth_set_puts(method, BIO_meth_get_puts(socket)) || !BIO_meth_set_ctrl(method, BIO_meth_get_ctrl(socket))
        || !BIO_meth_set_create(method, BIO_meth_get_create(socket)) || !BIO_meth_set_destroy(method, BIO_meth_get_destroy(socket))) {
        BIO_meth_free(method);
        return;
    }
    nosigpipe_method = method;
}

// A BIO on `fd` (not owning it) that writes with MSG_NOSIGNAL; OpenSSL's socket BIO if that cannot be made.
static BIO *new_socket_bio(int fd) {
    pthread_once(&nosigpipe_once, make_nosigpipe_method);
    if (nosigpipe_method == NULL) return BIO_new_socket(fd, BIO_NOCLOSE);
    BIO *bio = BIO_new(nosigpipe_method);
    if (bio != NULL) BIO_set_fd(bio, fd, BIO_NOCLOSE);
    return bio;
}

ctls_session *ctls_session_new(ctls_context *context, int fd) {
    if (context == NULL || fd < 0) { snprintf(thread_error, sizeof thread_error, "ctls_session_new: %s", strerror(EINVAL)); return NULL; }
    ERR_clear_error();
    ctls_session *session = calloc(1, sizeof *session);
    SSL *ssl = SSL_new(context->ctx);
    BIO *bio = new_socket_bio(fd);
    if (session == NULL || ssl == NULL || bio == NULL) {
        fail(thread_error, sizeof thread_error, session == NULL ? ENOMEM : 0, "cannot create a TLS session");
        BIO_free(bio);
        SSL_free(ssl);
        free(session);
        return NULL;
    }
#ifdef SO_NOSIGPIPE
    int one = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one); // best effort: the caller ignores SIGPIPE anyway
#endif
    SSL_set_bio(ssl, bio, bio); // the SSL owns the BIO (which does not own the fd)
    SSL_set_accept_state(ssl);
    SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    session->ssl = ssl;
    thread_error[0] = '\0';
    return session;
}

struct ctls_client {
    SSL_CTX *ctx;
    int insecure;
};

ctls_client *ctls_client_new(const char *ca_file, int insecure, char *error, size_t error_len) {
    ERR_clear_error();
    ctls_client *client = calloc(1, sizeof *client);
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (client == NULL || ctx == NULL) { fail(error, error_len, 0, "cannot allocate a TLS client context"); goto fail; }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    if (!insecure) {
        int loaded = ca_file != NULL ? SSL_CTX_load_verify_locations(ctx, ca_file, NULL) : SSL_CTX_set_default_verify_paths(ctx);
        if (loaded != 1) {
            fail(error, error_len, 0, "cannot load the trusted CA certificates%s%s", ca_file ? " from " : "", ca_file ? ca_file : "");
            goto fail;
        }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    }
    static const unsigned char alpn[] = "\x08http/1.1";
    SSL_CTX_set_alpn_protos(ctx, alpn, sizeof alpn - 1);
    client->ctx = ctx;
    client->insecure = insecure;
    ERR_clear_error();
    return client;
fail:
    SSL_CTX_free(ctx);
    free(client);
    ERR_clear_error();
    return NULL;
}

void ctls_client_free(ctls_client *client) {
    if (client == NULL) return;
    SSL_CTX_free(client->ctx);
    free(client);
}

ctls_session *ctls_session_connect(ctls_client *client, int fd, const char *host) {
    if (client == NULL || fd < 0 || host == NULL) {
        snprintf(thread_error, sizeof thread_error, "ctls_session_connect: %s", strerror(EINVAL));
        return NULL;
    }
    ERR_clear_error();
    ctls_session *session = calloc(1, sizeof *session);
    SSL *ssl = SSL_new(client->ctx);
    BIO *bio = new_socket_bio(fd);
    if (session == NULL || ssl == NULL || bio == NULL) {
        fail(thread_error, sizeof thread_error, session == NULL ? ENOMEM : 0, "cannot create a TLS session");
        BIO_free(bio);
        SSL_free(ssl);
        free(session);
        return NULL;
    }
    SSL_set_bio(ssl, bio, bio);
    SSL_set_connect_state(ssl);
    SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    unsigned char address[16];
    int literal = inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
    int named = literal ? 1 : SSL_set_tlsext_host_name(ssl, host); // SNI is for names only (RFC 6066 §3)
    int checked = client->insecure ? 1
                : literal ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
                          : SSL_set1_host(ssl, host);
    if (named != 1 || checked != 1) {
        fail(thread_error, sizeof thread_error, 0, "cannot set the host name %.200s", host);
        SSL_free(ssl);
        free(session);
        return NULL;
    }
    session->ssl = ssl;
    thread_error[0] = '\0';
    return session;
}

// 1 when the queued error says the peer closed the connection without close_notify.
static int is_unexpected_eof(void) {
    unsigned long code = ERR_peek_last_error();
    return ERR_GET_LIB(code) == ERR_LIB_SSL && ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

// Maps the outcome of a failed SSL_* call to a result code, recording the error text; empties the queue.
// `eof_result` is what a clean or unclean close by the peer means to the caller.
static int map_failure(ctls_session *session, int ret, int eof_result, const char *eof_text) {
    int saved_errno = errno;
    int code = SSL_get_error(session->ssl, ret);
    int result = CTLS_ERROR;
    switch (code) {
    case SSL_ERROR_WANT_READ: result = CTLS_WANT_READ; break;
    case SSL_ERROR_WANT_WRITE: result = CTLS_WANT_WRITE; break;
    case SSL_ERROR_ZERO_RETURN: // close_notify received
        result = eof_result;
        snprintf(session->error, sizeof session->error, "%s", eof_text);
        break;
    case SSL_ERROR_SYSCALL:
        session->failed = 1;
        if (ERR_peek_last_error() != 0) describe_openssl_error(session->error, sizeof session->error);
        else if (saved_errno != 0) snprintf(session->error, sizeof session->error, "%s", strerror(saved_errno));
        else { result = eof_result; snprintf(session->error, sizeof session->error, "%s", eof_text); }
        break;
    case SSL_ERROR_SSL:
        session->failed = 1;
        if (is_unexpected_eof()) {
            result = eof_result;
            snprintf(session->error, sizeof session->error, "%s", eof_text);
        } else {
            describe_openssl_error(session->error, sizeof session->error);
            long verified = SSL_get_verify_result(session->ssl);
            if (verified != X509_V_OK) {
                snprintf(session->error, sizeof session->error, "certificate verify failed: %s", X509_verify_cert_error_string(verified));
            }
        }
        break;
    default:
        session->failed = 1;
        snprintf(session->error, sizeof session->error, "unexpected SSL_get_error %d", code);
        break;
    }
    if (result == CTLS_ERROR && session->error[0] == '\0') snprintf(session->error, sizeof session->error, "TLS error");
    ERR_clear_error();
    return result;
}

int ctls_handshake(ctls_session *session) {
    if (session == NULL) return CTLS_ERROR;
    ERR_clear_error();
    errno = 0;
    int ret = SSL_do_handshake(session->ssl);
    if (ret == 1) return 1;
    return map_failure(session, ret, CTLS_ERROR, "connection closed during the TLS handshake");
}

long ctls_read(ctls_session *session, void *buffer, size_t length) {
    if (session == NULL || buffer == NULL || length == 0) return CTLS_ERROR;
    size_t done = 0;
    ERR_clear_error();
    errno = 0;
    if (length > LONG_MAX) length = LONG_MAX;
    int ret = SSL_read_ex(session->ssl, buffer, length, &done);
    if (ret == 1) return (long)done;
    return map_failure(session, ret, CTLS_CLOSED, "connection closed by the client");
}

long ctls_write(ctls_session *session, const void *buffer, size_t length) {
    if (session == NULL || (buffer == NULL && length > 0)) return CTLS_ERROR;
    if (length == 0) return 0;
    size_t done = 0;
    ERR_clear_error();
    errno = 0;
    if (length > LONG_MAX) length = LONG_MAX;
    int ret = SSL_write_ex(session->ssl, buffer, length, &done);
    if (ret == 1) return (long)done;
    return map_failure(session, ret, CTLS_ERROR, "connection closed by the client");
}

int ctls_pending(ctls_session *session) {
    return session == NULL ? 0 : SSL_pending(session->ssl);
}

int ctls_session_alpn_h2(ctls_session *session) {
    if (session == NULL) return 0;
    const unsigned char *protocol = NULL;
    unsigned int length = 0;
    SSL_get0_alpn_selected(session->ssl, &protocol, &length);
    return length == sizeof h2_protocol - 1 && memcmp(protocol, h2_protocol, length) == 0;
}

void ctls_session_error(ctls_session *session, char *out, size_t out_len) {
    if (out == NULL || out_len == 0) return;
    const char *text = session != NULL ? session->error : thread_error;
    if (text[0] != '\0') snprintf(out, out_len, "%s", text);
    else describe_openssl_error(out, out_len);
    if (out[0] == '\0') snprintf(out, out_len, "no error");
}

void ctls_session_free(ctls_session *session) {
    if (session == NULL) return;
    // close_notify once, without waiting for the client's; not after a fatal error or an unfinished handshake.
    if (!session->failed && SSL_is_init_finished(session->ssl)) {
        ERR_clear_error();
        (void)SSL_shutdown(session->ssl);
        ERR_clear_error();
    }
    SSL_free(session->ssl);
    free(session);
}

// MARK: - Digests (request-list scripts' `crypto`)

#include <openssl/evp.h>
#include <openssl/hmac.h>

int ctls_digest(const char *algorithm, const unsigned char *key, size_t key_len, const unsigned char *data, size_t data_len,
                unsigned char *out) {
    const EVP_MD *md = EVP_get_digestbyname(algorithm);
    if (md == NULL) return -1;
    unsigned int length = 0;
    if (key != NULL) {
        if (HMAC(md, key, (int)key_len, data, data_len, out, &length) == NULL) { ERR_clear_error(); return -1; }
    } else {
        if (EVP_Digest(data, data_len, out, &length, md, NULL) != 1) { ERR_clear_error(); return -1; }
    }
    return (int)length;
}
