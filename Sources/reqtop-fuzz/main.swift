// libFuzzer targets for every parser that reads outside input (`make fuzz`). Built only with
// REQTOP_FUZZ=1 (Package.swift), instrumented with coverage and AddressSanitizer, and linked with
// libFuzzer's driver: `reqtop-fuzz TARGET [libFuzzer options] CORPUS…`.
import Foundation
import ReqtopHTTPModel
@testable import ReqtopProxy
@testable import ReqtopRequestLists
@testable import ReqtopTestServer

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// One input, as each parser takes it.
enum FuzzTarget: String, CaseIterable {
    case http, har, curl, hurl, bruno, postman, insomnia, json, jsonpath, proxyHead = "proxy-head", proxyChunked = "proxy-chunked"
    case serverHead = "server-head", insomniaYAML = "insomnia-yaml", streamMessages = "stream-messages"
    case websocketFrames = "websocket-frames", http2Server = "http2-server"

    func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        switch self {
        case .http: list(text, "f.http", .http)
        case .har, .postman, .insomnia: list(text, "f.json", .har)
        case .curl: list(text, "f.sh", .curl)
        case .insomniaYAML:
            _ = try? YAMLReader.parse(text)
            if let list = try? InsomniaImporter.parseYAML(text: text, path: "f.yaml") { touch(list) }
        case .hurl:
            guard let list = try? RequestListLoader.load(text: text, path: "f.hurl", format: .hurl) else { return }
            touch(list)
            // Its checks, evaluated against a fixed response.
            let response = CheckedResponse(status: 200, httpVersion: "1.1", url: "http://h.test/a?x=1",
                                           headers: [HTTPHeader(name: "Content-Type", value: "application/json"),
                                                     HTTPHeader(name: "Set-Cookie", value: "s=1; Path=/; HttpOnly")],
                                           body: Data(#"{"a": [1, 2.5, "x", {"b": null}], "c": true}"#.utf8), durationMilliseconds: 3)
            for spec in list.specs {
                guard let checks = spec.checks else { continue }
                _ = checks.capture(response) { $0 }
                _ = checks.test(response) { $0 }
            }
        case .bruno:
            guard let bru = try? BruFile(text: text, path: "/nonexistent/f.bru") else { return }
            var reader = BrunoReader(root: "/nonexistent")
            reader.request(bru, folders: ["F"], inherited: BrunoLevel())
            for spec in reader.specs { touch(RequestList(specs: [spec], sourcePath: "/nonexistent/f.bru", format: .http)) }
        case .json:
            _ = try? JSONParser.parseLocated(text)
        case .jsonpath:
            guard let query = try? JSONPathQuery(text) else { return }
            _ = query.evaluate(.object([("a", .array([.number("1"), .object([("b", .string("x"))])])), ("c", .null)]))
        case .proxyHead:
            data.withUnsafeBytes { bytes in
                if case .head(let head, _) = RequestHeadParser.parse(bytes) { _ = RequestHeadParser.framing(of: head) }
            }
        case .proxyChunked:
            var decoder = BodyDecoder(.chunked)
            data.withUnsafeBytes { bytes in _ = try? decoder.decode(bytes) { _ in } }
        case .serverHead:
            _ = try? RequestReader.parseHead(Array(data))
        case .streamMessages:
            streamMessages(data)
        case .websocketFrames:
            websocketFrames(data)
        case .http2Server:
            http2Server(data)
        }
    }

    /// A client's bytes after the preface, to the proxy's HTTP/2 server side, in reads the first byte
    /// sizes; every request is answered (a head, a body, its end) and the frames written out.
    private func http2Server(_ data: Data) {
        guard let first = data.first, let session = HTTP2Session() else { return }
        let bytes = ProxyLoop.clientPreface + Array(data.dropFirst())
        let piece = Int(first) % 61 + 1
        var open: Set<Int32> = []
        var start = 0
        while start < bytes.count, session.isOpen {
            let end = min(bytes.count, start + piece)
            _ = bytes[start..<end].withUnsafeBytes { session.feed($0) }
            start = end
            session.drainEvents { event in
                switch event {
                case .request(let id, _, _, _):
                    open.insert(id)
                    session.respond(id, status: 200, headers: [HTTPHeader(name: "content-type", value: "text/plain")])
                    let body = [UInt8](repeating: 0x61, count: 100)
                    _ = body.withUnsafeBytes { session.append(id, $0) }
                    session.finish(id)
                case .data(let id, _), .end(let id, _):
                    precondition(open.contains(id), "body bytes for a stream whose head was not told")
                case .closed(let id, _):
                    open.remove(id)
                }
            }
            session.flush { $0.count }
        }
    }

    /// The first byte picks the format and the size of the reads; every format must give the same
    /// messages however the body is cut, and keep at most `keptBytes` of each.
    private func streamMessages(_ data: Data) {
        guard let first = data.first else { return }
        let format = StreamMessage.Format.allCases[Int(first) % StreamMessage.Format.allCases.count]
        let body = Array(data.dropFirst())
        func parse(_ piece: Int) -> [StreamMessage] {
            var parser = StreamMessageParser(format: format, keptBytes: 64)
            var found: [StreamMessage] = []
            var start = 0
            while start < body.count {
                let end = min(body.count, start + piece)
                body[start..<end].withUnsafeBytes { parser.feed($0) { found.append($0) } }
                start = end
            }
            parser.finish { found.append($0) }
            return found
        }
        let whole = parse(max(1, body.count)), cut = parse(Int(first) / 3 % 7 + 1)
        precondition(whole == cut, "the messages depend on how the body was cut")
        precondition(whole.allSatisfy { $0.size >= 0 && ($0.isWhole ? true : $0.size > 64) }, "kept more than asked")
    }

    /// The first byte picks the direction and the size of the reads: the same messages and the same
    /// error however the bytes are cut, and at most `keptBytes` of each payload kept.
    private func websocketFrames(_ data: Data) {
        guard let first = data.first else { return }
        let direction: WebSocketMessage.Direction = first & 1 == 0 ? .send : .receive
        let body = Array(data.dropFirst())
        func parse(_ piece: Int) -> ([WebSocketMessage], String?) {
            var parser = WebSocketFrameParser(direction: direction, keptBytes: 64)
            var found: [WebSocketMessage] = []
            var start = 0
            do {
                while start < body.count {
                    let end = min(body.count, start + piece)
                    try body[start..<end].withUnsafeBytes { try parser.feed($0) { found.append($0) } }
                    start = end
                }
            } catch {
                return (found, "\(error)")
            }
            return (found, nil)
        }
        let whole = parse(max(1, body.count)), cut = parse(Int(first >> 1) % 9 + 1)
        precondition(whole.0 == cut.0 && whole.1 == cut.1, "the frames depend on how the bytes were cut")
        precondition(whole.0.allSatisfy { $0.payload.count <= max(64, 125) }, "kept more than asked")
    }

    private func list(_ text: String, _ path: String, _ format: RequestListFormat) {
        guard let list = try? RequestListLoader.load(text: text, path: path, format: format) else { return }
        touch(list)
    }

    /// Resolves every request of a list that parsed (variables, bodies that are text).
    private func touch(_ list: RequestList) {
        let resolver = RequestResolver(list: list)
        _ = try? resolver.validate()
        for index in list.specs.indices.prefix(64) { _ = try? resolver.resolveKeepingResponseReferences(index) }
    }
}

var arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: reqtop-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) [libFuzzer options] [CORPUS…]\n".utf8))
    exit(2)
}
nonisolated(unsafe) var selected = target
arguments.remove(at: 1)
var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
var argc = Int32(arguments.count)
let status = cArguments.withUnsafeMutableBufferPointer { buffer in
    var argv = buffer.baseAddress!
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        selected.run(Data(bytes: data!, count: size))
        return 0
    }
}
exit(status)
