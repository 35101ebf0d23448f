import FoundationEssentials

extension Redaction {
    /// An event as it may leave the process (JSON Lines, the attach stream): every URL and head
    /// redacted, private values taken out of bodies held in memory.
    public func event(_ event: TaskEvent) -> TaskEvent {
        var event = event
        switch event.kind {
        case .created(var description):
            description.request = request(description.request)
            event.kind = .created(description)
        case .requestSent(let sent):
            event.kind = .requestSent(head(sent))
        case .redirected(let hop):
            event.kind = .redirected(redirect(hop))
        case .response(let response):
            event.kind = .response(head(response))
        case .completed(var completion):
            completion.response = head(completion.response)
            completion.redirects = completion.redirects.map(redirect)
            if case .data(let data)? = completion.body { completion.body = .data(body(data)) }
            event.kind = .completed(completion)
        case .failed(let failure):
            event.kind = .failed(self.failure(failure))
        case .cancelled(let failure):
            event.kind = .cancelled(failure.map(self.failure))
        case .scriptLog(var log):
            log.text = String(decoding: body(Data(log.text.utf8)), as: UTF8.self) // client.log(token)
            event.kind = .scriptLog(log)
        case .message(var streamed):
            streamed.data = String(decoding: body(Data(streamed.data.utf8)), as: UTF8.self) // {"token": "…"} in a stream
            event.kind = .message(streamed)
        case .test(var result):
            result.message = result.message.map { String(decoding: body(Data($0.utf8)), as: UTF8.self) }
            event.kind = .test(result)
        case .resumed, .suspended, .progress:
            break
        }
        return event
    }

    private func failure(_ failure: TaskFailure) -> TaskFailure {
        var failure = failure
        failure.response = failure.response.map(head)
        failure.redirects = failure.redirects.map(redirect)
        if case .data(let data)? = failure.partialBody { failure.partialBody = .data(body(data)) }
        return failure
    }

    private func redirect(_ hop: RedirectHop) -> RedirectHop {
        var hop = hop
        hop.response = head(hop.response)
        if case let hidden = url(hop.from.absoluteString), hidden != hop.from.absoluteString, let from = HTTPURL(string: hidden) { hop.from = from }
        if case let hidden = url(hop.to.absoluteString), hidden != hop.to.absoluteString, let to = HTTPURL(string: hidden) { hop.to = to }
        return hop
    }
}
