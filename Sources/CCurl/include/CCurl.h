#ifndef CCURL_H
#define CCURL_H
// Distinct CURL* and CURLM* types.
#define CURL_STRICTER
#include <curl/curl.h>
#endif
