#include <stdio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "CCurl.h"

CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_share(CURL *h, CURLSH *s) { return curl_easy_setopt(h, CURLOPT_SHARE, s); }

CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }

CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
CURLSHcode ccurl_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }

CURLcode ccurl_easy_pause_all(CURL *h) { return curl_easy_pause(h, CURLPAUSE_ALL); }
CURLcode ccurl_easy_pause_continue(CURL *h) { return curl_easy_pause(h, CURLPAUSE_CONT); }

size_t ccurl_readfunc_pause(void) { return CURL_READFUNC_PAUSE; }
size_t ccurl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
size_t ccurl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }

// The Swift functions every transfer's callbacks go to; set once, before the first transfer starts.
static ccurl_data_callback g_on_body, g_on_header;
static ccurl_read_callback g_on_read;
static ccurl_seek_callback g_on_seek;
static ccurl_progress_callback g_on_progress;
static ccurl_data_callback g_on_header_out;

void ccurl_set_callback_targets(ccurl_data_callback on_body, ccurl_data_callback on_header,
                                ccurl_read_callback on_read, ccurl_seek_callback on_seek,
                                ccurl_progress_callback on_progress, ccurl_data_callback on_header_out) {
    g_on_body = on_body; g_on_header = on_header; g_on_read = on_read; g_on_seek = on_seek;
    g_on_progress = on_progress; g_on_header_out = on_header_out;
}

static size_t write_trampoline(char *p, size_t size, size_t n, void *ctx) { return g_on_body(ctx, p, size * n); }
static size_t header_trampoline(char *p, size_t size, size_t n, void *ctx) { return g_on_header(ctx, p, size * n); }
static size_t read_trampoline(char *p, size_t size, size_t n, void *ctx) { return g_on_read(ctx, p, size * n); }
// libcurl rewinds the request body to send it again (a 307/308, or a retry on a dead keep-alive connection).
static int seek_trampoline(void *ctx, curl_off_t offset, int origin) {
    if (origin != SEEK_SET) return CURL_SEEKFUNC_CANTSEEK;
    return g_on_seek(ctx, offset) ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL;
}
static int progress_trampoline(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un) {
    return g_on_progress(ctx, dt, dn, ut, un);
}

// Only the request head as sent reaches Swift; libcurl's other debug output is dropped here.
static int debug_trampoline(CURL *h, curl_infotype type, char *data, size_t size, void *ctx) {
    (void)h;
    if (type == CURLINFO_HEADER_OUT) g_on_header_out(ctx, data, size);
    return 0;
}

void ccurl_install_callbacks(CURL *h, void *context) {
    curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, debug_trampoline);
    curl_easy_setopt(h, CURLOPT_DEBUGDATA, context);
    curl_easy_setopt(h, CURLOPT_VERBOSE, 1L); // the debug function is called only in verbose mode
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_trampoline);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, context);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, header_trampoline);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, context);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, read_trampoline);
    curl_easy_setopt(h, CURLOPT_READDATA, context);
    curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, seek_trampoline);
    curl_easy_setopt(h, CURLOPT_SEEKDATA, context);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, progress_trampoline);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, context);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
}

int ccurl_features(void) { return curl_version_info(CURLVERSION_NOW)->features; }
unsigned int ccurl_version_number(void) { return curl_version_info(CURLVERSION_NOW)->version_num; }

// The sockets libcurl opened for one engine and has not closed yet, so a transfer's connection can
// be found by its ports. One table per engine (its multi handle): only that engine's thread touches it.
struct ccurl_sockets {
    curl_socket_t *fds;
    int count, capacity;
};

ccurl_sockets *ccurl_sockets_new(void) { return calloc(1, sizeof(ccurl_sockets)); }

void ccurl_sockets_free(ccurl_sockets *table) {
    if (!table) return;
    free(table->fds);
    free(table);
}

static curl_socket_t open_trampoline(void *ctx, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    ccurl_sockets *table = ctx;
    curl_socket_t fd = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    if (fd == CURL_SOCKET_BAD) return fd;
    if (table->count == table->capacity) {
        int capacity = table->capacity ? table->capacity * 2 : 64;
        curl_socket_t *grown = realloc(table->fds, (size_t)capacity * sizeof(curl_socket_t));
        if (!grown) return fd; // untracked: its transfer is timed by callbacks alone
        table->fds = grown;
        table->capacity = capacity;
    }
    table->fds[table->count++] = fd;
    return fd;
}

static int close_trampoline(void *ctx, curl_socket_t fd) {
    ccurl_sockets *table = ctx;
    for (int i = 0; i < table->count; i++) {
        if (table->fds[i] == fd) { table->fds[i] = table->fds[--table->count]; break; }
    }
    return close(fd);
}

void ccurl_track_sockets(CURL *h, ccurl_sockets *table) {
    curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, open_trampoline);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, table);
    curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, close_trampoline);
    curl_easy_setopt(h, CURLOPT_CLOSESOCKETDATA, table);
}

// The port and the numeric address of a socket address, as libcurl reports them (CURLINFO_*_IP).
static long port_and_address(const struct sockaddr_storage *address, char *text, size_t size) {
    if (address->ss_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        if (!inet_ntop(AF_INET, &v4->sin_addr, text, (socklen_t)size)) return -1;
        return ntohs(v4->sin_port);
    }
    if (address->ss_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        if (!inet_ntop(AF_INET6, &v6->sin6_addr, text, (socklen_t)size)) return -1;
        return ntohs(v6->sin6_port);
    }
    return -1;
}

long ccurl_connection_idle_ms(CURL *h, ccurl_sockets *table) {
    // An HTTP/2 connection carries other streams: its bytes say nothing about this one.
    long version = 0;
    if (curl_easy_getinfo(h, CURLINFO_HTTP_VERSION, &version) == CURLE_OK && version >= CURL_HTTP_VERSION_2_0) return -1;
    long local = 0, remote = 0;
    char *local_ip = NULL, *remote_ip = NULL;
    if (curl_easy_getinfo(h, CURLINFO_LOCAL_PORT, &local) != CURLE_OK || local <= 0) return -1;
    if (curl_easy_getinfo(h, CURLINFO_PRIMARY_PORT, &remote) != CURLE_OK || remote <= 0) return -1;
    if (curl_easy_getinfo(h, CURLINFO_LOCAL_IP, &local_ip) != CURLE_OK || !local_ip) return -1;
    if (curl_easy_getinfo(h, CURLINFO_PRIMARY_IP, &remote_ip) != CURLE_OK || !remote_ip) return -1;
    for (int i = 0; i < table->count; i++) {
        struct sockaddr_storage mine, theirs;
        socklen_t mine_length = sizeof(mine), theirs_length = sizeof(theirs);
        char mine_text[INET6_ADDRSTRLEN], theirs_text[INET6_ADDRSTRLEN];
        if (getsockname(table->fds[i], (struct sockaddr *)&mine, &mine_length) != 0) continue;
        if (port_and_address(&mine, mine_text, sizeof(mine_text)) != local || strcmp(mine_text, local_ip) != 0) continue;
        if (getpeername(table->fds[i], (struct sockaddr *)&theirs, &theirs_length) != 0) continue;
        if (port_and_address(&theirs, theirs_text, sizeof(theirs_text)) != remote || strcmp(theirs_text, remote_ip) != 0) continue;
        struct tcp_info info;
        socklen_t length = sizeof(info);
        if (getsockopt(table->fds[i], IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
        unsigned int received = info.tcpi_last_data_recv, sent = info.tcpi_last_data_sent;
        return (long)(received < sent ? received : sent);
    }
    return -1;
}
