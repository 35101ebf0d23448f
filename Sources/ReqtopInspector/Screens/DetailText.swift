import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// The text of each detail tab.
enum DetailText {
    /// At most this much of a body is shown; a larger one says so.
    static let bodyPreviewLimit = 1 << 20

    /// The request heads exactly as they went on the wire (every hop of a redirect chain, with the
    /// headers the client added), each followed by the body when that hop sent one (a 303 drops
    /// it); before anything was sent, the request as given.
    static func request(_ r: TaskRecord) -> [String] {
        var lines: [String] = []
        if r.sentHeads.isEmpty {
            lines += [r.state.isTerminal ? "not sent; the request as given:" : "not sent yet; the request as given:", ""]
            lines.append("\(r.method) \(r.url.absoluteString)")
            lines += HeaderTable.lines(r.request.headers)
            lines += requestBody(r.request.body, repeated: false)
        }
        var bodyShown = false
        for (index, head) in r.sentHeads.enumerated() {
            if index > 0 { lines.append("") }
            let hop = r.redirects.isEmpty ? "" : " — hop \(head.hop + 1) of \(r.redirects.count + 1)"
            lines.append("── sent to \(head.url.absoluteString)\(hop) ──")
            lines.append(head.requestLine)
            lines += HeaderTable.lines(head.headers)
            if head.headers.contains(name: "Content-Length") || head.headers.contains(name: "Transfer-Encoding") {
                lines += requestBody(r.request.body, repeated: bodyShown)
                if !bodyShown, let sent = r.streamedBodyBytes, case .data(let kept) = r.request.body, Int64(kept.count) < sent {
                    lines.append("(first \(ByteCount.format(Int64(kept.count))) of \(ByteCount.format(sent)) kept: the rest streamed through)")
                }
                bodyShown = true
            }
        }
        return lines
    }

    private static func requestBody(_ body: HTTPRequest.Body, repeated: Bool) -> [String] {
        switch body {
        case .none: return []
        case .data(let data):
            let size = ByteCount.format(Int64(data.count))
            if repeated { return ["", "── the same body (\(size)) ──"] }
            return ["", "── body (\(size)) ──"] + (BodyView.isMostlyText(data) ? Sanitizer.lines(String(decoding: data.prefix(64 << 10), as: UTF8.self)) : ["(binary)"])
        case .file(let path):
            return ["", "── body streamed from \(path) ──"]
        }
    }

    /// Every response head as received: each redirect's (with its Set-Cookie fields), then the final one.
    static func response(_ r: TaskRecord) -> [String] {
        var lines: [String] = []
        for (index, hop) in r.redirects.enumerated() {
            lines.append("── redirect \(index + 1): \(hop.from.absoluteString) → \(hop.to.absoluteString) ──")
            lines.append(hop.response.statusLine)
            lines += HeaderTable.lines(hop.response.headers)
            lines.append("")
        }
        if let head = r.response {
            if !r.redirects.isEmpty { lines.append("── final response from \(head.url.absoluteString) ──") }
            lines.append(head.statusLine)
            lines += HeaderTable.lines(head.headers)
        } else {
            lines.append(r.state == .running ? "waiting for the response…" : "no response")
        }
        if let error = r.error { lines += ["", "Error: \(error.code.rawValue): \(error.message)"] }
        return lines
    }

    static func body(_ r: TaskRecord, view: BodyView, live: Data? = nil) -> DetailContent {
        let bytes: Data
        var notes: [String] = []
        if let body = r.body {
            guard let read = try? body.prefix(bodyPreviewLimit) else { return .lines(["the body could not be read"]) }
            bytes = read
            if let reason = endedEarly(r) { notes.append("(partial: \(reason) after \(ByteCount.format(body.count)))") }
            if endedEarly(r) == nil, r.downloaded > body.count {
                // A streamed body (the proxy's): only its start was kept, the rest went through.
                notes.append("(first \(ByteCount.format(body.count)) of \(ByteCount.format(r.downloaded)) kept: the rest passed through)")
            }
            if body.count > Int64(bytes.count) {
                notes.append("showing the first \(ByteCount.format(Int64(bytes.count))) of \(ByteCount.format(body.count))")
            }
        } else if let live, !live.isEmpty, !r.state.isTerminal {
            bytes = live
            let total = max(r.downloaded, Int64(live.count))
            notes.append(r.state == .suspended ? "(suspended: \(ByteCount.format(total)) so far)" : "(receiving: \(ByteCount.format(total)) so far)")
            if total > Int64(live.count) { notes.append("showing the first \(ByteCount.format(Int64(live.count)))") }
        } else {
            if r.bodyReleased { return .lines(["the body was released to keep memory bounded (the oldest go first)"]) }
            if let reason = endedEarly(r) { return .lines(["no body arrived before the task \(reason == "cancelled" ? "was cancelled" : "failed") (\(reason))"]) }
            if r.state.isTerminal { return .lines(["(no body)"]) }
            return .lines([r.response == nil ? "waiting for the response…" : "waiting for the body…"])
        }
        notes.append("\(view.rawValue) view (v changes it)")
        let note = notes.joined(separator: " · ")
        switch view.content(of: bytes, mimeType: r.response?.mimeType) {
        case .lines(let lines): return .lines([note, ""] + lines)
        case .json(let lines): return .json([note, ""] + lines)
        case .markup(let lines): return .markup([note, ""] + lines)
        case .hex(let bytes, _): return .hex(bytes, note: note)
        }
    }

    /// Why a task that has ended did not complete: "cancelled", or the failure's code ("connectionReset").
    static func endedEarly(_ r: TaskRecord) -> String? {
        switch r.state {
        case .cancelled: "cancelled"
        case .failed: r.error?.code.rawValue ?? "failed"
        default: nil
        }
    }

    static func timing(_ r: TaskRecord, width: Int, now: Double) -> [String] {
        let paused = r.pausedMilliseconds(now: now)
        guard let t = r.timings, t.total > 0 else {
            if r.state.isTerminal {
                guard paused > 0, let seconds = r.duration(now: now) else { return ["no timings for this task"] }
                return ["no timings for this task", "",
                        "Its TIME, \(Milliseconds.format(seconds * 1000)), includes \(Milliseconds.format(paused)) it spent suspended "
                            + "(\(Milliseconds.format(max(0, seconds * 1000 - paused))) without)."]
            }
            return live(r, paused: paused, now: now)
        }
        // Time suspended is its own row, taken out of the phase it fell in (receive, else wait).
        var receive = t.receive, wait = t.wait
        if paused > 0 {
            if receive >= paused { receive -= paused } else if wait >= paused { wait -= paused }
        }
        var phases: [(String, Double)] = [("dns", t.dns), ("connect", t.connect), ("tls", t.tls), ("send", t.send),
                                          ("wait", wait), ("receive", receive)]
        if paused > 0 { phases.append(("paused", paused)) }
        if t.redirect >= 0 { phases.insert(("redirect", t.redirect), at: 0) } // earlier hops of the chain
        let barWidth = max(10, width - 24)
        var lines = ["Waterfall (total \(Milliseconds.format(t.total)))", ""]
        var start = 0.0
        for (name, ms) in phases {
            let value = max(0, ms)
            let offset = Int((start / t.total * Double(barWidth)).rounded())
            let length = ms < 0 ? 0 : max(value > 0 ? 1 : 0, Int((value / t.total * Double(barWidth)).rounded()))
            let bar = String(repeating: " ", count: min(offset, barWidth)) + String(repeating: "█", count: min(length, max(0, barWidth - offset)))
            lines.append(name.fitted(to: 8)
                         + Milliseconds.format(ms).leftPadded(to: 10) + "  " + bar)
            start += value
        }
        lines += ["", "−/– means the phase did not happen (reused connection, no TLS, no redirect, no response)."]
        return lines
    }

    /// The connection the task's last exchange used and the other tasks that used it: one after
    /// another (HTTP/1.1 keep-alive), or at the same time (HTTP/2 streams multiplexed on it).
    static func connection(_ r: TaskRecord, peers: [TaskRecord]) -> [String] {
        guard let connection = r.connection else { return [] }
        let version = r.response.map { "HTTP/\($0.httpVersion)" } ?? "no response"
        let reused = (r.timings?.connect ?? 0) < 0 ? "reused" : "opened for it"
        var lines = ["", "Connection \(connection) (\(version), \(reused))"]
        let others = peers.filter { $0.id != r.id }
        guard !others.isEmpty else {
            lines.append("  no other task used it")
            return lines
        }
        func overlaps(_ other: TaskRecord) -> Bool {
            guard let start = r.startedAt, let end = r.endedAt, let otherStart = other.startedAt, let otherEnd = other.endedAt else { return false }
            return otherStart < end && start < otherEnd
        }
        let atOnce = others.filter(overlaps)
        let ids = others.prefix(12).map { "#\($0.id.rawValue)" }.joined(separator: " ") + (others.count > 12 ? " …" : "")
        lines.append("  also used by \(others.count) other task\(others.count == 1 ? "" : "s"): \(ids)")
        if !atOnce.isEmpty {
            lines.append("  \(atOnce.count) of them ran at the same time as this one: streams multiplexed on one connection ("
                         + atOnce.prefix(12).map { "#\($0.id.rawValue)" }.joined(separator: " ") + (atOnce.count > 12 ? " …" : "") + ")")
        }
        return lines
    }

    /// While the task runs: what is known so far (libcurl reports the phases when it ends).
    static func live(_ r: TaskRecord, paused: Double, now: Double) -> [String] {
        guard let started = r.startedAt else { return ["not started yet (queued or suspended)"] }
        let elapsed = (now - started) * 1000
        var lines = ["Running for \(Milliseconds.format(elapsed))" + (r.state == .suspended ? " (suspended now)" : ""), ""]
        let firstByte = r.timeline.first { $0.event == .response }?.time
        if let firstByte {
            lines.append("until the response head".fitted(to: 26) + Milliseconds.format((firstByte - started) * 1000).leftPadded(to: 10))
            lines.append("receiving so far".fitted(to: 26)
                         + Milliseconds.format(max(0, (now - firstByte) * 1000 - paused)).leftPadded(to: 10)
                         + "  \(ByteCount.format(r.downloaded))")
        } else {
            lines.append("waiting for a response".fitted(to: 26) + Milliseconds.format(max(0, elapsed - paused)).leftPadded(to: 10))
        }
        if paused > 0 { lines.append("paused".fitted(to: 26) + Milliseconds.format(paused).leftPadded(to: 10)) }
        lines += ["", "the full waterfall (dns, connect, tls, send, wait, receive) appears when the task ends"]
        return lines
    }

    static func events(_ r: TaskRecord) -> [String] {
        guard let first = r.timeline.first?.time else { return ["no events yet"] }
        var lines: [String] = []
        for entry in r.timeline {
            let offset = String(printf: "+%.3fs", entry.time - first).leftPadded(to: 9)
            let payload = entry.payload(in: r)
            let name = entry.event == .request ? "request sent" : entry.event.rawValue
            lines.append("\(offset)  \(name)" + (payload.first.map { "  \($0)" } ?? ""))
            lines += payload.dropFirst().map { String(repeating: " ", count: 11) + $0 }
        }
        return lines
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
