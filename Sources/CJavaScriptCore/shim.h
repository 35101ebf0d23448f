// JavaScriptCore's C API (Debian: libjavascriptcoregtk-4.1-dev; the same API macOS ships as a
// system framework), and the two calls of its execution time limit, which the library exports but
// whose header (JSContextRefPrivate.h) is not installed.
#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);
