#ifndef CCURL_H
#define CCURL_H
// Distinct CURL*, CURLM* and CURLSH* types.
#define CURL_STRICTER
#include <curl/curl.h>

// Typed wrappers for libcurl's variadic option and info calls, which Swift cannot call.
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_setopt_share(CURL *handle, CURLSH *share);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode ccurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

CURLcode ccurl_easy_pause_all(CURL *handle);
/// The sockets one engine's libcurl has open (engine thread only), to find a transfer's connection.
typedef struct ccurl_sockets ccurl_sockets;
ccurl_sockets *ccurl_sockets_new(void);
void ccurl_sockets_free(ccurl_sockets *table);
/// Makes libcurl open and close `handle`'s sockets through `table`.
void ccurl_track_sockets(CURL *handle, ccurl_sockets *table);
/// Milliseconds since the transfer's connection last moved a data byte either way (the kernel's
/// TCP_INFO: head bytes, TLS records and all), or -1 when it has no connection (yet) or no TCP one.
long ccurl_connection_idle_ms(CURL *handle, ccurl_sockets *table);
CURLcode ccurl_easy_pause_continue(CURL *handle);

// Callbacks carry one context pointer (the transfer) back into Swift.
typedef size_t (*ccurl_data_callback)(void *context, const char *bytes, size_t length);
typedef size_t (*ccurl_read_callback)(void *context, char *buffer, size_t capacity);
typedef int (*ccurl_seek_callback)(void *context, curl_off_t offset);
typedef int (*ccurl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

/// Sets the functions that every transfer's callbacks are routed to (call once, before any transfer).
/// `curl_global_init`, with libcurl's receive buffers (`buffer_size + 1` bytes: CURLOPT_BUFFERSIZE as
/// every transfer sets it) taken from a pool of reused slots outside the malloc heap (BufferPool.c).
/// Call once, before any other libcurl call.
CURLcode ccurl_global_init_with_buffer_pool(long flags, size_t buffer_size);

void ccurl_set_callback_targets(ccurl_data_callback on_body, ccurl_data_callback on_header,
                                ccurl_read_callback on_read, ccurl_seek_callback on_seek,
                                ccurl_progress_callback on_progress, ccurl_data_callback on_header_out);
/// Routes the write, header, read, seek, progress and debug callbacks of `handle` to those functions,
/// with `context`; `on_header_out` receives each request head exactly as sent (`CURLINFO_HEADER_OUT`).
void ccurl_install_callbacks(CURL *handle, void *context);

/// libcurl's return value for a read callback that wants to pause, and for a write callback.
size_t ccurl_readfunc_pause(void);
size_t ccurl_writefunc_pause(void);
size_t ccurl_readfunc_abort(void);
/// `curl_version_info(CURLVERSION_NOW)->version_num`: 0xXXYYZZ for libcurl XX.YY.ZZ.
unsigned int ccurl_version_number(void);
/// `curl_version_info(CURLVERSION_NOW)->features` (CURL_VERSION_LIBZ, _BROTLI, _ZSTD …).
int ccurl_features(void);
#endif
