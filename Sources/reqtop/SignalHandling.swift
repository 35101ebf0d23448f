import CProcess
#if canImport(Glibc)
import Glibc
#endif

/// Waits on the calling thread until `finish()`, and turns SIGINT and SIGTERM meanwhile into calls
/// of a handler on that same thread instead of ending the process.
///
/// The signals arrive through a pipe (a C handler writes their numbers), so no Dispatch signal
/// source and no libdispatch manager thread are needed: a one-request run started three threads
/// fewer. Create one per process, before the work it waits for starts.
final class StopSignalWaiter: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    /// - Parameter secondSignalExitCode: a second signal ends the process at once with this code
    ///   (for a stop that hangs); nil: every signal is handed to the handler.
    init(secondSignalExitCode: Int32? = nil) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // No pipe, no way to hear signals: they keep their default action (ending the process).
            readEnd = -1
            writeEnd = -1
            return
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // not inherited by the programs a run starts
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        _ = cprocess_route_stop_signals(writeEnd, secondSignalExitCode ?? -1)
    }

    /// Ends `wait`. Safe from any thread, the engine thread too (one `write`).
    func finish() {
        var zero: UInt8 = 0
        if writeEnd < 0 { return }
        _ = write(writeEnd, &zero, 1)
    }

    /// Makes `wait` start calling its `deliver` (events wait to be printed). Safe from any thread,
    /// the engine thread too (one `write`).
    func wakeForEvents() {
        var byte = Self.eventsByte
        if writeEnd < 0 { return }
        _ = write(writeEnd, &byte, 1)
    }

    /// Signal numbers are below this; the C handler writes nothing else but them, and `finish` a zero.
    private static let eventsByte: UInt8 = 255

    /// Blocks until `finish()` is called, calling `onSignal` with the signal's number on this
    /// thread for each SIGINT or SIGTERM that comes first.
    ///
    /// After `wakeForEvents()`, `deliver` is called on this thread every `gathering` milliseconds
    /// (events gather meanwhile) until it returns false, having found nothing to deliver; the next
    /// `wakeForEvents()` starts it again. A steady stream of events costs whoever posts them nothing.
    func wait(gathering: Int = 2, deliver: () -> Bool = { false }, onSignal: (Int32) -> Void) {
        guard readEnd >= 0 else { return }
        var byte: UInt8 = 0
        var deadline: UInt64? // when `deliver` is next due (monotonic nanoseconds), while events come
        while true {
            if let due = deadline {
                let now = Self.monotonicNanoseconds()
                if now >= due {
                    deadline = deliver() ? now + UInt64(gathering) * 1_000_000 : nil
                    continue
                }
                var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let count = poll(&ready, 1, Int32((due - now + 999_999) / 1_000_000))
                if count == 0 || (count < 0 && errno == EINTR) { continue }
                if count < 0 { return }
            }
            let count = read(readEnd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, byte != 0 else { return } // finished (or the pipe failed)
            if byte == Self.eventsByte {
                if deadline == nil { deadline = Self.monotonicNanoseconds() + UInt64(gathering) * 1_000_000 }
            } else {
                onSignal(Int32(byte))
            }
        }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
