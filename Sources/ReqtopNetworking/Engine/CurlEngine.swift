import CCurl
import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// libcurl's multi interface on a thread of its own: the handle other threads hold.
///
/// Other threads only enqueue commands and wake the loop with `curl_multi_wakeup`. The loop
/// (`EngineLoop`) is created on the engine thread and owns the multi handle, every easy handle,
/// the waiting queue and the session-level delegate; idle means blocked in `curl_multi_poll`.
final class CurlEngine: Sendable {
    enum Command: Sendable {
        case start(TaskID, TransferRequest)
        case suspend(TaskID)
        case resume(TaskID)
        case cancel(TaskID)
        /// A streaming task's consumer or body source is ready again: unpause unless the user suspended it.
        case continueStream(TaskID)
        case shutdown
    }

    /// The engine thread's name (debuggers and crash reports show it).
    static let threadName = "reqtop.engine"

    /// Commands for the engine thread, and whether it still takes any: one lock, so nothing is
    /// enqueued (or wakes the multi handle) once shutdown has been requested.
    private let inbox = Protected(EngineInbox())
    private let wakeup: MultiWakeup
    private let threadEnded = DispatchSemaphore(value: 0)

    init(registry: TaskDelegateRegistry, bus: EventBus, maxConcurrent: Int, maxPerHost: Int) {
        EngineLoop.initializeLibcurl()
        let wakeup = MultiWakeup(multi: curl_multi_init())
        self.wakeup = wakeup
        let inbox = self.inbox
        let threadEnded = self.threadEnded
        startThread(named: Self.threadName) {
            let loop = EngineLoop(multi: wakeup.multi, inbox: inbox, delegate: SessionDelegate(registry: registry, bus: bus),
                                  maxConcurrent: max(1, maxConcurrent), maxPerHost: max(1, maxPerHost))
            loop.run()
            threadEnded.signal()
        }
    }

    /// Hands a command to the engine thread and wakes it; false once the engine is shutting down.
    @discardableResult
    func enqueue(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            if inbox.stopped { return false }
            if case .shutdown = command { inbox.stopped = true }
            inbox.commands.append(command)
            // One wake-up until the engine takes the commands (a write to libcurl's socket pair each: one
            // per request was as many system calls as the requests themselves, and as many extra passes).
            // Inside the lock: the multi handle cannot be cleaned up before this wake-up.
            // A task to start while every slot is taken needs none: it could not start now, and the loop
            // takes its commands before each sleep — a request handed over ahead costs no thread switch.
            if case .start = command, inbox.slotsFull { return true }
            // Nor a command from the engine thread itself (a handler that runs there starting the next task).
            if EngineThread.isCurrent { return true }
            if !inbox.wakePending { inbox.wakePending = wakeup.wake() } // a failed wake-up is tried again by the next command
            return true
        }
    }

    /// Cancels everything and ends the thread; returns once it has ended (or at once when not
    /// `waiting`: a process about to exit). Later calls return at once.
    func stop(waiting: Bool = true) {
        if enqueue(.shutdown), waiting { threadEnded.wait() }
    }
}

/// What other threads hand the engine thread.
struct EngineInbox: Sendable {
    var commands: [CurlEngine.Command] = []
    var stopped = false
    /// The engine was woken for commands it has not taken yet: later commands need no wake-up of their own.
    var wakePending = false
    /// The loop went to sleep with every slot taken (set before each sleep, with no command left):
    /// a `start` command then waits for its next pass without waking it.
    var slotsFull = false
}

/// The multi handle as other threads may use it: only to wake the loop.
struct MultiWakeup: @unchecked Sendable { // curl_multi_wakeup is the one multi call libcurl allows from any thread
    let multi: OpaquePointer

    /// True when the loop will see the wake-up.
    func wake() -> Bool { curl_multi_wakeup(multi) == CURLM_OK }
}

/// Asserts (in debug builds) that engine-only state is touched on an engine thread, which
/// marks itself with a thread-specific value when its loop starts.
enum EngineThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { value in // the thread's deferred-work list goes with it
            if let value { Unmanaged<AfterPass>.fromOpaque(value).release() }
        }
        return key
    }()

    /// Marks the calling thread as an engine thread (at the start of `EngineLoop.run()`).
    static func markCurrent() { pthread_setspecific(key, Unmanaged.passRetained(AfterPass()).toOpaque()) }

    /// Whether the calling thread is an engine thread.
    static var isCurrent: Bool { pthread_getspecific(key) != nil }

    /// Work a completion handler on this engine thread deferred until its task's terminal event is posted.
    private final class AfterPass {
        var work: [@Sendable () -> Void] = []
    }

    private static var afterPassWork: AfterPass? {
        pthread_getspecific(key).map { Unmanaged<AfterPass>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Defers `work` (on an engine thread) to the end of the pass: after the terminal event of the task
    /// completing now, and after the transfers that take the slots freed start (`SessionDelegate.afterPass`).
    static func afterPass(_ work: @escaping @Sendable () -> Void) { afterPassWork?.work.append(work) }

    /// Runs the deferred work, in order (work it defers runs too).
    static func runAfterPassWork() {
        guard let after = afterPassWork else { return }
        while !after.work.isEmpty {
            let batch = after.work
            after.work.removeAll()
            for work in batch { work() }
        }
    }

    static func check(file: StaticString = #fileID, line: UInt = #line) {
        assert(pthread_getspecific(key) != nil, "engine-only state touched off the engine thread", file: file, line: line)
    }
}
