#define _XOPEN_SOURCE 700
#include <wchar.h>
#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include "CTextWidth.h"

int ctextwidth_wcwidth(uint32_t scalar) { return wcwidth((wchar_t)scalar); }

static int is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

int ctextwidth_ensure_utf8_locale(void) {
    setlocale(LC_CTYPE, "");
    if (is_utf8()) return 1;
    if (setlocale(LC_CTYPE, "C.UTF-8") && is_utf8()) return 1;
    return 0;
}
