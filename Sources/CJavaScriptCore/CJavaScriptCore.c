// Loads JavaScriptCore the first time a script needs it (see CJavaScriptCore.h) and forwards
// each call of its C API to the library's own function.
#include "CJavaScriptCore.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    JSContextGroupRef (*JSContextGroupCreate)(void);
    void (*JSContextGroupRelease)(JSContextGroupRef group);
    void (*JSContextGroupSetExecutionTimeLimit)(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);
    void (*JSContextGroupClearExecutionTimeLimit)(JSContextGroupRef group);
    JSGlobalContextRef (*JSGlobalContextCreateInGroup)(JSContextGroupRef group, JSClassRef globalObjectClass);
    void (*JSGlobalContextRelease)(JSGlobalContextRef ctx);
    JSObjectRef (*JSContextGetGlobalObject)(JSContextRef ctx);
    JSValueRef (*JSEvaluateScript)(JSContextRef ctx, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL, int startingLineNumber, JSValueRef* exception);
    JSStringRef (*JSStringCreateWithUTF8CString)(const char* string);
    void (*JSStringRelease)(JSStringRef string);
    size_t (*JSStringGetMaximumUTF8CStringSize)(JSStringRef string);
    size_t (*JSStringGetUTF8CString)(JSStringRef string, char* buffer, size_t bufferSize);
    JSValueRef (*JSObjectGetProperty)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef* exception);
    void (*JSObjectSetProperty)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSPropertyAttributes attributes, JSValueRef* exception);
    bool (*JSObjectIsFunction)(JSContextRef ctx, JSObjectRef object);
    JSValueRef (*JSObjectCallAsFunction)(JSContextRef ctx, JSObjectRef object, JSObjectRef thisObject, size_t argumentCount, const JSValueRef arguments[], JSValueRef* exception);
    JSObjectRef (*JSObjectMakeFunctionWithCallback)(JSContextRef ctx, JSStringRef name, JSObjectCallAsFunctionCallback callAsFunction);
    bool (*JSValueIsString)(JSContextRef ctx, JSValueRef value);
    bool (*JSValueIsNumber)(JSContextRef ctx, JSValueRef value);
    bool (*JSValueIsNull)(JSContextRef ctx, JSValueRef value);
    bool (*JSValueIsObject)(JSContextRef ctx, JSValueRef value);
    JSStringRef (*JSValueToStringCopy)(JSContextRef ctx, JSValueRef value, JSValueRef* exception);
    double (*JSValueToNumber)(JSContextRef ctx, JSValueRef value, JSValueRef* exception);
    JSObjectRef (*JSValueToObject)(JSContextRef ctx, JSValueRef value, JSValueRef* exception);
    JSValueRef (*JSValueMakeString)(JSContextRef ctx, JSStringRef string);
    JSValueRef (*JSValueMakeUndefined)(JSContextRef ctx);
    JSValueRef (*JSValueMakeFromJSONString)(JSContextRef ctx, JSStringRef string);
    JSStringRef (*JSValueCreateJSONString)(JSContextRef ctx, JSValueRef value, unsigned indent, JSValueRef* exception);
    void (*JSValueProtect)(JSContextRef ctx, JSValueRef value);
    void (*JSValueUnprotect)(JSContextRef ctx, JSValueRef value);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void load(void) {
    // REQTOP_JAVASCRIPTCORE names another build of the library (a path, or a soname).
    const char *name = getenv("REQTOP_JAVASCRIPTCORE");
    void *library = dlopen(name && *name ? name : "libjavascriptcoregtk-4.1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "JavaScriptCore could not be loaded (%s): install libjavascriptcoregtk-4.1-0", dlerror());
        return;
    }
#define RESOLVE(name) \
    if (!(*(void **)&api.name = dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "this JavaScriptCore has no %s", #name); \
        return; \
    }
    RESOLVE(JSContextGroupCreate)
    RESOLVE(JSContextGroupRelease)
    RESOLVE(JSContextGroupSetExecutionTimeLimit)
    RESOLVE(JSContextGroupClearExecutionTimeLimit)
    RESOLVE(JSGlobalContextCreateInGroup)
    RESOLVE(JSGlobalContextRelease)
    RESOLVE(JSContextGetGlobalObject)
    RESOLVE(JSEvaluateScript)
    RESOLVE(JSStringCreateWithUTF8CString)
    RESOLVE(JSStringRelease)
    RESOLVE(JSStringGetMaximumUTF8CStringSize)
    RESOLVE(JSStringGetUTF8CString)
    RESOLVE(JSObjectGetProperty)
    RESOLVE(JSObjectSetProperty)
    RESOLVE(JSObjectIsFunction)
    RESOLVE(JSObjectCallAsFunction)
    RESOLVE(JSObjectMakeFunctionWithCallback)
    RESOLVE(JSValueIsString)
    RESOLVE(JSValueIsNumber)
    RESOLVE(JSValueIsNull)
    RESOLVE(JSValueIsObject)
    RESOLVE(JSValueToStringCopy)
    RESOLVE(JSValueToNumber)
    RESOLVE(JSValueToObject)
    RESOLVE(JSValueMakeString)
    RESOLVE(JSValueMakeUndefined)
    RESOLVE(JSValueMakeFromJSONString)
    RESOLVE(JSValueCreateJSONString)
    RESOLVE(JSValueProtect)
    RESOLVE(JSValueUnprotect)
#undef RESOLVE
}

const char *reqtop_javascriptcore_load_error(void) {
    pthread_once(&once, load);
    return failure[0] ? failure : NULL;
}

JSContextGroupRef JSContextGroupCreate(void) { return api.JSContextGroupCreate(); }
void JSContextGroupRelease(JSContextGroupRef group) { api.JSContextGroupRelease(group); }
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context) { api.JSContextGroupSetExecutionTimeLimit(group, limit, callback, context); }
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group) { api.JSContextGroupClearExecutionTimeLimit(group); }
JSGlobalContextRef JSGlobalContextCreateInGroup(JSContextGroupRef group, JSClassRef globalObjectClass) { return api.JSGlobalContextCreateInGroup(group, globalObjectClass); }
void JSGlobalContextRelease(JSGlobalContextRef ctx) { api.JSGlobalContextRelease(ctx); }
JSObjectRef JSContextGetGlobalObject(JSContextRef ctx) { return api.JSContextGetGlobalObject(ctx); }
JSValueRef JSEvaluateScript(JSContextRef ctx, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL, int startingLineNumber, JSValueRef* exception) { return api.JSEvaluateScript(ctx, script, thisObject, sourceURL, startingLineNumber, exception); }
JSStringRef JSStringCreateWithUTF8CString(const char* string) { return api.JSStringCreateWithUTF8CString(string); }
void JSStringRelease(JSStringRef string) { api.JSStringRelease(string); }
size_t JSStringGetMaximumUTF8CStringSize(JSStringRef string) { return api.JSStringGetMaximumUTF8CStringSize(string); }
size_t JSStringGetUTF8CString(JSStringRef string, char* buffer, size_t bufferSize) { return api.JSStringGetUTF8CString(string, buffer, bufferSize); }
JSValueRef JSObjectGetProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef* exception) { return api.JSObjectGetProperty(ctx, object, propertyName, exception); }
void JSObjectSetProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSPropertyAttributes attributes, JSValueRef* exception) { api.JSObjectSetProperty(ctx, object, propertyName, value, attributes, exception); }
bool JSObjectIsFunction(JSContextRef ctx, JSObjectRef object) { return api.JSObjectIsFunction(ctx, object); }
JSValueRef JSObjectCallAsFunction(JSContextRef ctx, JSObjectRef object, JSObjectRef thisObject, size_t argumentCount, const JSValueRef arguments[], JSValueRef* exception) { return api.JSObjectCallAsFunction(ctx, object, thisObject, argumentCount, arguments, exception); }
JSObjectRef JSObjectMakeFunctionWithCallback(JSContextRef ctx, JSStringRef name, JSObjectCallAsFunctionCallback callAsFunction) { return api.JSObjectMakeFunctionWithCallback(ctx, name, callAsFunction); }
bool JSValueIsString(JSContextRef ctx, JSValueRef value) { return api.JSValueIsString(ctx, value); }
bool JSValueIsNumber(JSContextRef ctx, JSValueRef value) { return api.JSValueIsNumber(ctx, value); }
bool JSValueIsNull(JSContextRef ctx, JSValueRef value) { return api.JSValueIsNull(ctx, value); }
bool JSValueIsObject(JSContextRef ctx, JSValueRef value) { return api.JSValueIsObject(ctx, value); }
JSStringRef JSValueToStringCopy(JSContextRef ctx, JSValueRef value, JSValueRef* exception) { return api.JSValueToStringCopy(ctx, value, exception); }
double JSValueToNumber(JSContextRef ctx, JSValueRef value, JSValueRef* exception) { return api.JSValueToNumber(ctx, value, exception); }
JSObjectRef JSValueToObject(JSContextRef ctx, JSValueRef value, JSValueRef* exception) { return api.JSValueToObject(ctx, value, exception); }
JSValueRef JSValueMakeString(JSContextRef ctx, JSStringRef string) { return api.JSValueMakeString(ctx, string); }
JSValueRef JSValueMakeUndefined(JSContextRef ctx) { return api.JSValueMakeUndefined(ctx); }
JSValueRef JSValueMakeFromJSONString(JSContextRef ctx, JSStringRef string) { return api.JSValueMakeFromJSONString(ctx, string); }
JSStringRef JSValueCreateJSONString(JSContextRef ctx, JSValueRef value, unsigned indent, JSValueRef* exception) { return api.JSValueCreateJSONString(ctx, value, indent, exception); }
void JSValueProtect(JSContextRef ctx, JSValueRef value) { api.JSValueProtect(ctx, value); }
void JSValueUnprotect(JSContextRef ctx, JSValueRef value) { api.JSValueUnprotect(ctx, value); }
