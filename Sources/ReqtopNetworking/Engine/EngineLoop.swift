import CCurl
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// The engine thread's side: the multi handle, every transfer, the waiting queue (at most
/// `maxConcurrent` transfers are in the multi handle — libcurl slows down badly when handed a
/// large backlog — the rest wait here in order), and the session delegate. Created and used on
/// the engine thread only.
final class EngineLoop {
    private let multi: OpaquePointer
    private let share: OpaquePointer
    /// The sockets libcurl has open for this engine (`ccurl_sockets`), for the idle timeout.
    private let sockets: OpaquePointer
    private let inbox: Protected<EngineInbox>
    private let delegate: SessionDelegate
    private let maxConcurrent: Int
    private let maxPerHost: Int
    private var active: [TaskID: Transfer] = [:]
    /// Transfers waiting for a slot: `waitingOrder` is FIFO, `waiting` holds the live ones (a removed
    /// id is skipped when it comes up, so cancel and suspend of queued tasks are O(1)).
    private var waiting: [TaskID: Transfer] = [:]
    private var waitingOrder: [TaskID] = []
    private var waitingHead = 0
    private var parked: [TaskID: Transfer] = [:]   // suspended before they started
    private var perHost: [String: Int] = [:]

    init(multi: OpaquePointer, inbox: Protected<EngineInbox>, delegate: SessionDelegate, maxConcurrent: Int, maxPerHost: Int) {
        self.multi = multi
        self.inbox = inbox
        self.delegate = delegate
        self.maxConcurrent = maxConcurrent
        self.maxPerHost = maxPerHost
        share = curl_share_init()
        sockets = ccurl_sockets_new()
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxPerHost)
    }

    private static let libcurl: Void = {
        ccurl_global_init_with_buffer_pool(Int(CURL_GLOBAL_DEFAULT), Int(TransferState.readSize))
        ccurl_set_callback_targets(onBody, onHeader, onRead, onSeek, onProgress, onHeaderOut)
    }()

    /// Initializes libcurl and routes its callbacks (once per process).
    static func initializeLibcurl() { _ = libcurl }

    // MARK: The loop

    func run() {
        EngineThread.markCurrent()
        var stillRunning: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox in
                defer {
                    inbox.commands.removeAll(keepingCapacity: true)
                    inbox.wakePending = false
                }
                return inbox.commands
            }
            for command in commands {
                if case .shutdown = command {
                    delegate.afterPass() // what the last pass deferred, as it would have run
                    shutdown()
                    return
                }
                apply(command)
            }
            admit()
            curl_multi_perform(multi, &stillRunning)
            // The work the last pass's completion handlers deferred (the runner resolving and creating
            // its next requests) runs once the transfers that took the freed slots have sent their requests.
            delegate.afterPass()
            collectFinished()
            delegate.endOfPass()
            if admit() { continue } // slots freed: start the next ones before sleeping
            delegate.afterPass()
            // Commands that came without a wake-up (starts while the slots were full) are taken before
            // sleeping; otherwise the inbox learns whether the slots are full for the next sleep.
            let full = active.count >= maxConcurrent
            let sleeps = inbox.withLock { inbox -> Bool in
                guard inbox.commands.isEmpty else { return false }
                inbox.slotsFull = full
                return true
            }
            guard sleeps else { continue }
            delegate.beforeSleep()
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func apply(_ command: CurlEngine.Command) {
        switch command {
        case .start(let id, let request):
            guard let state = delegate.makeState(for: id) else { return } // ended before it started
            enqueueWaiting(Transfer(id: id, request: request, state: state, delegate: delegate)) // `resumed` when it starts
        case .suspend(let id):
            if let transfer = active[id] {
                ccurl_easy_pause_all(transfer.easy)
                transfer.setPaused(true)
                announce(transfer, running: false)
            } else if let transfer = waiting.removeValue(forKey: id) {
                parked[id] = transfer
                announce(transfer, running: false)
            }
        case .resume(let id):
            if let transfer = active[id] {
                transfer.setPaused(false)
                ccurl_easy_pause_continue(transfer.easy)
                announce(transfer, running: true)
            } else if let transfer = parked.removeValue(forKey: id) {
                enqueueWaiting(transfer)
            }
        case .cancel(let id):
            if let transfer = active.removeValue(forKey: id) {
                let timings = transfer.timings() // the phases so far, read before the handle goes
                transfer.state.connection = transfer.connection() ?? transfer.state.connection
                release(transfer)
                delegate.transferWasCancelled(transfer, timings: timings)
            } else if let transfer = waiting.removeValue(forKey: id) ?? parked.removeValue(forKey: id) {
                delegate.transferWasCancelled(transfer)
            }
        case .continueStream(let id):
            if let transfer = active[id], delegate.registry.peek(id)?.task.state == .running {
                transfer.setPaused(false)
                ccurl_easy_pause_continue(transfer.easy)
            }
        case .shutdown:
            break
        }
    }

    private func enqueueWaiting(_ transfer: Transfer, first: Bool = false) {
        waiting[transfer.id] = transfer
        if first {
            waitingOrder.insert(transfer.id, at: waitingHead)
        } else {
            waitingOrder.append(transfer.id)
        }
    }

    /// Moves waiting transfers into the multi handle while there is room; true if any started.
    /// A transfer whose host is at its limit keeps its place.
    @discardableResult
    private func admit() -> Bool {
        guard !waiting.isEmpty, active.count < maxConcurrent else { return false }
        var started = false
        var skipped: [TaskID] = []
        while waitingHead < waitingOrder.count, active.count < maxConcurrent {
            let id = waitingOrder[waitingHead]
            waitingHead += 1
            guard let transfer = waiting[id] else { continue } // cancelled or suspended meanwhile
            if perHost[transfer.hostKey, default: 0] >= maxPerHost {
                skipped.append(id)
                continue
            }
            waiting[id] = nil
            start(transfer)
            started = true
        }
        if waitingHead == waitingOrder.count || waitingHead > 4096 {
            waitingOrder.removeFirst(waitingHead)
            waitingHead = 0
        }
        if !skipped.isEmpty { waitingOrder.insert(contentsOf: skipped, at: waitingHead) }
        return started
    }

    private func start(_ transfer: Transfer) {
        perHost[transfer.hostKey, default: 0] += 1
        let spare = spareHandles.popLast()
        transfer.configure(easy: spare ?? curl_easy_init()!, share: share, sockets: sockets, reused: spare != nil)
        active[transfer.id] = transfer
        curl_multi_add_handle(multi, transfer.easy)
        if !transfer.state.announcedRunning { announce(transfer, running: true) }
    }

    /// Posts `resumed` (the transfer is in the multi handle, or continues after a pause) or `suspended`.
    private func announce(_ transfer: Transfer, running: Bool) {
        transfer.state.announcedRunning = running
        if running { delegate.transferDidResume(transfer.id) } else { delegate.transferDidSuspend(transfer.id) }
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let result = message.pointee.data.result
            var privateData: UnsafeMutablePointer<CChar>?
            ccurl_easy_getinfo_string(easy, CURLINFO_PRIVATE, &privateData)
            let id = TaskID(rawValue: Int(bitPattern: privateData))
            guard let transfer = active.removeValue(forKey: id) else { continue }
            let error = result == CURLE_OK ? nil : TransferError(curlCode: result, detail: transfer.errorDetail)
            let timings = transfer.timings()
            transfer.state.connection = transfer.connection() ?? transfer.state.connection
            release(transfer)
            if let next = delegate.redirect(afterFinishing: transfer, transportError: error, timings: timings) {
                // A redirect to follow: the same task and state, a new transfer, first in line.
                enqueueWaiting(Transfer(id: id, request: next, state: transfer.state, delegate: delegate), first: true)
                continue
            }
            delegate.transferDidFinish(transfer, transportError: error, timings: timings)
        }
    }

    private func release(_ transfer: Transfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        perHost[transfer.hostKey, default: 1] -= 1
        // The handle goes back for the next transfer: `curl_easy_reset` keeps its allocations
        // (a new handle per request was a large calloc and libcurl's set-up each time).
        guard let easy = transfer.detachHandle() else { return }
        if spareHandles.count < Self.maxSpareHandles {
            curl_easy_reset(easy)
            spareHandles.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    /// Easy handles kept for reuse: about as many as run at once.
    private static let maxSpareHandles = 256
    private var spareHandles: [OpaquePointer] = []

    private func shutdown() {
        for transfer in active.values {
            release(transfer)
            delegate.transferWasCancelled(transfer)
        }
        active.removeAll()
        for transfer in waiting.values { delegate.transferWasCancelled(transfer) }
        for transfer in parked.values { delegate.transferWasCancelled(transfer) }
        waiting.removeAll()
        waitingOrder.removeAll()
        parked.removeAll()
        delegate.endOfPass()
        delegate.afterPass()
        spareHandles.forEach { curl_easy_cleanup($0) }
        spareHandles.removeAll()
        curl_multi_cleanup(multi)
        curl_share_cleanup(share)
        ccurl_sockets_free(sockets) // after every handle: closing a connection updates the table
    }
}

// MARK: - C callbacks: the context is the Transfer; each forwards to the session delegate by task id.

private func transfer(_ context: UnsafeMutableRawPointer?) -> Transfer {
    Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
}

private let onBody: ccurl_data_callback = { context, bytes, length in
    let transfer = transfer(context)
    switch transfer.delegate.didReceiveBody(UnsafeRawBufferPointer(start: bytes, count: length), transfer: transfer) {
    case .taken: transfer.moved(); return length
    case .paused: transfer.setPaused(true); return ccurl_writefunc_pause()
    case .failed: return 0
    }
}

private let onHeader: ccurl_data_callback = { context, bytes, length in
    let transfer = transfer(context)
    transfer.moved()
    let ok = transfer.delegate.didReceiveHeaderLine(UnsafeRawBufferPointer(start: bytes, count: length), transfer: transfer)
    return ok ? length : 0
}

private let onHeaderOut: ccurl_data_callback = { context, bytes, length in
    let transfer = transfer(context)
    transfer.moved()
    transfer.delegate.didSendHead(UnsafeRawBufferPointer(start: bytes, count: length), transfer: transfer)
    return length
}

private let onRead: ccurl_read_callback = { context, buffer, capacity in
    let transfer = transfer(context)
    switch transfer.delegate.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity), transfer: transfer) {
    case .bytes(let n): transfer.moved(); return n
    case .pause: transfer.setPaused(true); return ccurl_readfunc_pause()
    case .abort: return ccurl_readfunc_abort()
    }
}

private let onSeek: ccurl_seek_callback = { context, offset in
    let transfer = transfer(context)
    return transfer.delegate.seekBody(to: Int64(offset), transfer: transfer) ? 1 : 0
}

private let onProgress: ccurl_progress_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
    let transfer = transfer(context)
    transfer.delegate.progress(transfer: transfer, downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal),
                               uploaded: Int64(uploaded), uploadTotal: Int64(uploadTotal))
    // libcurl calls this at least once a second while a transfer runs: the idle timeout is checked here.
    if let limit = transfer.idleLimit, let idle = transfer.idleSeconds(), idle >= limit {
        transfer.state.failIdle(idle: idle, limit: limit)
        return 1 // aborts the transfer
    }
    return 0
}
