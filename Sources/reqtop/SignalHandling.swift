import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Calls `handler` (on a background queue) for each SIGINT or SIGTERM instead of letting them kill
/// the process. Keep the returned sources alive for as long as the handler should run.
///
/// Created in a nonisolated function on purpose: a Dispatch handler closure written in top-level
/// code would be inferred `@MainActor` and trap on a background queue.
func installStopSignalHandler(_ handler: @escaping @Sendable (Int32) -> Void) -> [DispatchSourceSignal] {
    let queue = DispatchQueue(label: "reqtop.signals")
    return [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { handler(number) }
        source.resume()
        return source
    }
}
