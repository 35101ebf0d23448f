import CProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a new detached thread named `name` (the first 15 bytes: what `top -H`, debuggers
/// and crash reports show), with a stack of `stackSize` bytes when given (else the default, 8 MB).
///
/// A plain pthread rather than Foundation's `Thread`, whose start-up (the object, its name read
/// back and set again) took about 0.1 ms of a one-request `reqtop run`.
public func startThread(named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let rc = pthread_create(&thread, &attributes, { raw in
        let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
        _ = cprocess_name_current_thread(start.name)
        start.body()
        return nil
    }, start)
    precondition(rc == 0, "pthread_create failed: \(rc)")
}
