import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Progress reports and the end of a transfer (engine thread): what the task finished with.
extension TransferState {
    /// Whether `progress` would report anything: libcurl calls back on every pass of every transfer,
    /// mostly with nothing new.
    func hasProgress(uploaded: Int64) -> Bool {
        (uploaded > reportedUpload && current.bodySize != nil) || (received > reportedDownload && head != nil)
    }

    func progress(downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64,
                  emit: (TaskEvent.Kind) -> Void) {

        if uploaded > reportedUpload, let size = current.bodySize {
            reportedUpload = uploaded
            report(TransferProgress(direction: .upload, completed: uploaded, total: size), emit: emit)
        }
        if received > reportedDownload, head != nil {
            reportedDownload = received
            report(TransferProgress(direction: .download, completed: received, total: expectedLength(downloadTotal)), emit: emit)
        }
    }

    func expectedLength(_ curlTotal: Int64) -> Int64 {
        declaredLength ?? (curlTotal > 0 ? curlTotal : -1)
    }

    func report(_ progress: TransferProgress, emit: (TaskEvent.Kind) -> Void) {
        emit(.progress(progress))
        let handler = progress.direction == .upload ? delegate.uploadProgress : delegate.downloadProgress
        if let handler { delegate.completionQueue.async { handler(progress) } }
    }

    // MARK: Completion

    /// Closes files and gathers the result. `transportError` is nil when libcurl reported success.
    func finish(transportError: TransferError?, timings: PhaseTimings?, emit: (TaskEvent.Kind) -> Void) -> FinishedTransfer {
        EngineThread.check()
        if received > reportedDownload, head != nil {
            reportedDownload = received
            report(TransferProgress(direction: .download, completed: received, total: expectedLength(-1)), emit: emit)
        }
        if file == nil, let destination = delegate.destination, transportError == nil {
            file = try? FileSink(url: destination, isTemporary: false) // an empty body still makes the file
        }
        var body: ResponseBody? = if let file { .file(file.finish()) } else if delegate.destination == nil { .data(memoryBody) } else { nil }
        if failure?.code == .bodyTooLarge, case .file(let spilled)? = body, spilled.isTemporary {
            body = nil // what passed the limit is not kept: the temp file goes with the last reference
        }
        file = nil
        memoryBody = Data()
        var error = failure ?? transportError.map(refined)
        if error == nil {
            if let head { error = delegate.validation.validate(head) }
            else { error = TransferError(code: .badServerResponse, message: "the server sent no HTTP response") }
        }
        // The task's timings cover the whole chain: the last exchange's phases plus the redirects before it.
        let redirectTime = hops.reduce(0) { $0 + max(0, $1.timings?.total ?? 0) }
        return FinishedTransfer(head: head, body: body, bytes: received, redirects: hops, sentHeads: sentHeads,
                                timings: hops.isEmpty ? timings : timings?.afterRedirects(taking: redirectTime), error: error,
                                sentBody: sentBody, connection: connection)
    }

    /// libcurl's code made specific where what happened on the wire tells more: a peer that answered
    /// with something other than HTTP is not a bad URL, a response head too large is not a reset or
    /// an out-of-memory condition.
    func refined(_ error: TransferError) -> TransferError {
        var error = error
        guard head == nil else { return error }
        if error.code == .badURL, !sentHeads.isEmpty {
            error.code = .badServerResponse
            error.message = "the server did not answer in HTTP (\(error.message))"
        } else if error.message.hasPrefix("Too large response headers") || error.message == "Out of memory" && !sentHeads.isEmpty {
            error.code = .badServerResponse
            error.message = "the response head is too large (a line over 100 KB, or over 300 KB in all)"
        }
        return error
    }

    /// The result of a task that was cancelled before it finished: what had arrived is kept (a
    /// partial body, a spilled one stays in its file), with the timings so far when libcurl had them.
    func finishCancelled(timings: PhaseTimings? = nil) -> FinishedTransfer {
        let body: ResponseBody? = if let file { .file(file.finish()) } else if received > 0 { .data(memoryBody) } else { nil }
        file = nil
        memoryBody = Data()
        return FinishedTransfer(head: head, body: body, bytes: received, redirects: hops, sentHeads: sentHeads, timings: timings,
                                error: TransferError(code: .cancelled, message: "cancelled"), sentBody: sentBody, connection: connection)
    }

    /// What was read from a body source and sent; nil when the task has none (or sent none of it).
    var sentBody: StreamedRequestBody? {
        guard current.bodySource != nil, streamedBodySize > 0 else { return nil }
        return StreamedRequestBody(kept: streamedBody, size: streamedBodySize)
    }
}
