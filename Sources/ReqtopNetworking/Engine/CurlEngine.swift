import CCurl
import Foundation
import ReqtopSync

/// libcurl's multi interface on a thread of its own.
///
/// The thread owns the multi handle and every easy handle; other threads only enqueue commands and
/// wake it with `curl_multi_wakeup`. Idle means blocked in `curl_multi_poll`. At most
/// `maxConcurrent` transfers are in the multi handle; the rest wait here in order (libcurl
/// slows down badly when handed a large backlog).
final class CurlEngine: @unchecked Sendable { // multi, transfers and queues are confined to the engine thread; `inbox` is locked
    enum Command {
        case start(TaskID, TransferRequest)
        case suspend(TaskID)
        case resume(TaskID)
        case cancel(TaskID)
        case shutdown
    }

    private let multi: OpaquePointer
    private let share: OpaquePointer
    private let delegate: SessionDelegate
    private let maxConcurrent: Int
    private let maxPerHost: Int
    private let inbox = Protected([Command]())
    private let stopped = Protected(false)
    private let threadEnded = DispatchSemaphore(value: 0)

    // Engine-thread state.
    private var active: [TaskID: Transfer] = [:]
    private var waiting: [Transfer] = []
    private var waitingHead = 0
    private var parked: [TaskID: Transfer] = [:]   // suspended before they started
    private var perHost: [String: Int] = [:]

    init(delegate: SessionDelegate, maxConcurrent: Int, maxPerHost: Int) {
        Self.initializeLibcurl
        self.delegate = delegate
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxPerHost = max(1, maxPerHost)
        multi = curl_multi_init()
        share = curl_share_init()
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, self.maxPerHost)
        // The thread keeps the engine alive until it shuts down.
        let thread = Thread { self.run() }
        thread.name = "reqtop.engine"
        thread.start()
    }

    private static let initializeLibcurl: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        ccurl_set_callback_targets(onBody, onHeader, onRead, onProgress)
    }()

    /// Hands a command to the engine thread and wakes it; false once the engine is shutting down.
    @discardableResult
    func enqueue(_ command: Command) -> Bool {
        let accepted = stopped.withLock { stopped in
            if stopped { return false }
            if case .shutdown = command { stopped = true }
            return true
        }
        guard accepted else { return false }
        inbox.withLock { $0.append(command) }
        curl_multi_wakeup(multi)
        return true
    }

    // MARK: The loop

    private func run() {
        var stillRunning: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox in
                defer { inbox.removeAll(keepingCapacity: true) }
                return inbox
            }
            for command in commands {
                if case .shutdown = command {
                    shutdown()
                    threadEnded.signal()
                    return
                }
                apply(command)
            }
            admit()
            curl_multi_perform(multi, &stillRunning)
            collectFinished()
            delegate.endOfPass()
            if admit() { continue } // slots freed: start the next ones before sleeping
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func apply(_ command: Command) {
        switch command {
        case .start(let id, let request):
            waiting.append(Transfer(id: id, request: request, delegate: delegate))
            delegate.transferDidResume(id)
        case .suspend(let id):
            if let transfer = active[id] {
                ccurl_easy_pause_all(transfer.easy)
                delegate.transferDidSuspend(id)
            } else if let transfer = removeWaiting(id) {
                parked[id] = transfer
                delegate.transferDidSuspend(id)
            }
        case .resume(let id):
            if let transfer = active[id] {
                ccurl_easy_pause_continue(transfer.easy)
                delegate.transferDidResume(id)
            } else if let transfer = parked.removeValue(forKey: id) {
                waiting.append(transfer)
                delegate.transferDidResume(id)
            }
        case .cancel(let id):
            if let transfer = active.removeValue(forKey: id) {
                release(transfer)
                delegate.transferWasCancelled(id)
            } else if removeWaiting(id) != nil || parked.removeValue(forKey: id) != nil {
                delegate.transferWasCancelled(id)
            }
        case .shutdown:
            break
        }
    }

    /// Moves waiting transfers into the multi handle while there is room; true if any started.
    @discardableResult
    private func admit() -> Bool {
        guard waitingHead < waiting.count, active.count < maxConcurrent else { return false }
        var started = false
        var skipped: [Transfer] = []
        while waitingHead < waiting.count, active.count < maxConcurrent {
            let transfer = waiting[waitingHead]
            waitingHead += 1
            let key = transfer.request.hostKey
            if perHost[key, default: 0] >= maxPerHost {
                skipped.append(transfer)
                continue
            }
            perHost[key, default: 0] += 1
            transfer.configure(share: share)
            active[transfer.id] = transfer
            curl_multi_add_handle(multi, transfer.easy)
            started = true
        }
        if waitingHead == waiting.count || waitingHead > 1024 {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
        if !skipped.isEmpty { waiting.insert(contentsOf: skipped, at: waitingHead) }
        return started
    }

    private func removeWaiting(_ id: TaskID) -> Transfer? {
        guard let index = waiting[waitingHead...].firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: index)
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
            release(transfer)
            delegate.transferDidFinish(id, transportError: error, timings: timings)
        }
    }

    private func release(_ transfer: Transfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        perHost[transfer.request.hostKey, default: 1] -= 1
        transfer.close()
    }

    private func shutdown() {
        for (id, transfer) in active {
            release(transfer)
            delegate.transferWasCancelled(id)
        }
        active.removeAll()
        for transfer in waiting[waitingHead...] { delegate.transferWasCancelled(transfer.id) }
        for id in parked.keys { delegate.transferWasCancelled(id) }
        waiting.removeAll()
        parked.removeAll()
        delegate.endOfPass()
        curl_multi_cleanup(multi)
        curl_share_cleanup(share)
    }

    /// Cancels everything and ends the thread; returns once it has ended. Later calls return at once.
    func stop() {
        if enqueue(.shutdown) { threadEnded.wait() }
    }
}

// MARK: - C callbacks: the context is the Transfer; each forwards to the session delegate by task id.

private func transfer(_ context: UnsafeMutableRawPointer?) -> Transfer {
    Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
}

private let onBody: ccurl_data_callback = { context, bytes, length in
    let transfer = transfer(context)
    let ok = transfer.delegate.didReceiveBody(UnsafeRawBufferPointer(start: bytes, count: length), task: transfer.id)
    return ok ? length : 0
}

private let onHeader: ccurl_data_callback = { context, bytes, length in
    let transfer = transfer(context)
    let ok = transfer.delegate.didReceiveHeaderLine(UnsafeRawBufferPointer(start: bytes, count: length), task: transfer.id)
    return ok ? length : 0
}

private let onRead: ccurl_read_callback = { context, buffer, capacity in
    let transfer = transfer(context)
    guard let n = transfer.delegate.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity),
                                             task: transfer.id) else { return ccurl_readfunc_abort() }
    return n
}

private let onProgress: ccurl_progress_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
    let transfer = transfer(context)
    transfer.delegate.progress(task: transfer.id, downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal),
                               uploaded: Int64(uploaded), uploadTotal: Int64(uploadTotal))
    return 0
}
