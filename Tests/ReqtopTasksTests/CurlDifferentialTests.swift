import Foundation
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// The curl importer against curl itself: every command of the wild corpus is run by real curl
/// (through a `.curlrc` that connects every host to the embedded server) and read by reqtop; the
/// request head curl sent must be the one reqtop predicts it sends (`ClientHeaders.onTheWire`,
/// itself checked against the wire by `WireTruthTests`), and the bodies the same bytes.
final class CurlDifferentialTests: EmbeddedServerTestCase {
    /// Commands of `text`: the corpus files separate them with blank lines.
    private func commands(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.contains("curl") }
    }

    /// The head to compare: the request line, then the header fields as `name: value` in name order.
    /// Not compared: the client's own User-Agent (curl/… vs reqtop/…), a multipart boundary (random
    /// in both), and the position of the fields curl writes in libcurl's own slots (-u, -r, -b, -A,
    /// -e and the default form Content-Type), which reqtop sends among the request's fields.
    private func comparable(_ lines: [String]) -> [String] {
        let fields = lines.dropFirst().compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":") else { return line }
            let name = line[..<colon].lowercased()
            guard name != "user-agent" else { return nil }
            var value = line[line.index(after: colon)...].drop { $0 == " " }
            if let range = value.range(of: "boundary=") { value = value[..<range.upperBound] + "…" }
            return "\(name): \(value)"
        }
        return Array(lines.prefix(1)) + fields.sorted()
    }

    /// curl and bash from PATH, and a scratch folder for curl's HOME and the command's files
    /// (removed after the test).
    private func curlBashAndHome() throws -> (curl: String, bash: String, home: URL) {
        let curl = try XCTUnwrap(findExecutable(named: "curl"), "curl is needed on PATH")
        let bash = try XCTUnwrap(findExecutable(named: "bash"))
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        return (curl, bash, home)
    }

    /// Whether `request`'s body is the one curl sent: the same bytes, a multipart body's boundary
    /// (random in both) aside.
    private func sameBody(_ sent: LoggedRequest, _ request: HTTPRequest) -> Bool {
        let ours = request.body.data ?? Data()
        guard let boundary = Self.boundary(request.header(named: "Content-Type")) else { return sent.bodySHA256 == SHA256.hex(of: ours) }
        guard let theirs = sent.body, let curlBoundary = Self.boundary(sent.header("Content-Type")) else { return false }
        return Self.replacing(Data(curlBoundary.utf8), in: theirs) == Self.replacing(Data(boundary.utf8), in: ours)
    }

    private static func boundary(_ contentType: String?) -> String? {
        guard let contentType, contentType.hasPrefix("multipart/"), let range = contentType.range(of: "boundary=") else { return nil }
        return String(contentType[range.upperBound...])
    }

    private static func replacing(_ needle: Data, in data: Data) -> Data {
        var result = data, start = result.startIndex
        while let found = result.range(of: needle, in: start..<result.endIndex) {
            result.replaceSubrange(found, with: Data("BOUNDARY".utf8))
            start = found.lowerBound + 8
        }
        return result
    }

    /// `-F` uploads: files with bare line feeds and bytes that are not UTF-8 go out as they are,
    /// typed as curl types them (by the file name's extension, `;filename=` and `;type=` honoured).
    func testFormUploadsAreTheBytesCurlSends() throws {
        let (curl, bash, home) = try curlBashAndHome()
        try Data("a\nb\nc".utf8).write(to: home.appendingPathComponent("lines.bin"))
        try Data([0x00, 0x0A, 0x0D, 0x0A, 0xFF, 0x0A]).write(to: home.appendingPathComponent("binary.bin"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: home.appendingPathComponent("logo.PNG"))
        let url = "\(server.baseURL.absoluteString)/post"
        let command = "curl \(url) -F 'up=@lines.bin' -F 'b=@binary.bin' -F 't=<lines.bin' -F 'r=@lines.bin;filename=renamed.txt' "
            + "-F 'p=@logo.PNG' -F 'd=@binary.bin;type=text/x-custom' -F 'q=\"quoted;type=x\";type=text/y' -F $'n=two\\nlines' "
            + "--form-string 's=@notafile'"
        let list = try RequestListLoader.load(text: command, path: home.appendingPathComponent("form.curl").path, format: .curl)
        let request = try RequestResolver(list: list).resolve(0)
        let before = server.requestLog.count
        _ = try Subprocess.run(bash, ["-c", "cd '\(home.path)' && " + command.replacingOccurrences(of: "curl ", with: "'\(curl)' -s -o /dev/null ")],
                               timeout: 20, environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        let sent = try XCTUnwrap(server.requestLog.dropFirst(before).first, "curl sent nothing")
        var configuration = SessionConfiguration()
        configuration.compression = false
        let predicted = ["\(request.method) \(request.url.requestTarget) HTTP/1.1"]
            + ClientHeaders.onTheWire(request, configuration: configuration).map(\.header.description)
        XCTAssertEqual(comparable(sent.rawHead), comparable(predicted))
        XCTAssertTrue(sameBody(sent, request), "curl sent:\n\(String(decoding: sent.body ?? Data(), as: UTF8.self))\n"
                      + "reqtop reads:\n\(String(decoding: request.body.data ?? Data(), as: UTF8.self))")
    }

    /// The classes of commands issue 28 names, each run by real curl and read by reqtop: the heads
    /// and bodies the server received must be the ones reqtop predicts it sends, request for request.
    func testTheCommandClassesCurlSendsDifferentlyAreSentAsCurlSendsThem() throws {
        let (curl, bash, home) = try curlBashAndHome()
        try Data("line one\nline two\n".utf8).write(to: home.appendingPathComponent("up.txt"))
        try Data("a=1&b=two words\r\nc=3\n".utf8).write(to: home.appendingPathComponent("body.txt"))
        try Data("value with spaces & symbols=\n".utf8).write(to: home.appendingPathComponent("value.txt"))
        try Data("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc\n#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\thid\txyz\n"
            .utf8).write(to: home.appendingPathComponent("cookies.txt"))
        try Data(repeating: 0x61, count: 1_100_000).write(to: home.appendingPathComponent("big.bin"))
        let base = "http://127.0.0.1:\(server.port)"
        let commands = [
            "curl -T up.txt \(base)/put",
            "curl -T up.txt \(base)/anything/dir/",
            "curl -T up.txt '\(base)/anything/dir/?q=1'",
            "curl -b 'a=1; b=2' \(base)/cookies",
            "curl -b cookies.txt \(base)/cookies",
            "curl -b cookies.txt -c jar.txt \(base)/cookies",
            "curl -c jar.txt \(base)/get",
            "curl \(base)",
            "curl \(base)?x=1",
            "curl -G -d a=1 -d 'b=two words' '\(base)/get?x=0'",
            "curl -G --data-urlencode 'q=a b&c' \(base)/get",
            "curl \(base)/get?n=1 \(base)/anything/two",
            "curl -X POST -d one=1 \(base)/post \(base)/anything",
            "curl -F 'f=@up.txt;type=text/x-custom' \(base)/post",
            "curl -F 'g=v;headers=\"X-Part: 1\"' \(base)/post",
            "curl -F 'f=@up.txt;headers=X-One: 1' \(base)/post",
            "curl --json '{\"a\":1}' \(base)/post",
            "curl --json '{\"a\":1}' --json '{\"b\":2}' \(base)/post",
            "curl --json @up.txt \(base)/post",
            "curl -d x=1 --json '{\"a\":1}' \(base)/post",
            "curl --json '{\"a\":1}' -H 'Content-Type: application/vnd.api+json' \(base)/post",
            "curl -d @body.txt \(base)/post",
            "curl --data-binary @body.txt \(base)/post",
            "curl --data-raw @body.txt \(base)/post",
            "curl -d a=1 -d @body.txt \(base)/post",
            "curl --data-urlencode name@value.txt \(base)/post",
            "curl --data-urlencode @value.txt \(base)/post",
            "curl --data-urlencode 'n=a b' --data-urlencode '=c&d' \(base)/post",
            "curl --data-binary @big.bin \(base)/post",
            "curl -b @cookies.txt -b 'z=9' \(base)/cookies",
            "curl -b missing.txt \(base)/cookies",
            "curl -T up.txt \(base)",
        ]
        var configuration = SessionConfiguration()
        configuration.compression = false
        var wrong: [String] = [], refusals: [String] = []
        for command in commands {
            let list: RequestList
            let requests: [HTTPRequest]
            do {
                list = try RequestListLoader.load(text: command, path: home.appendingPathComponent("command.curl").path, format: .curl)
                let resolver = RequestResolver(list: list)
                requests = try list.specs.indices.map { try resolver.resolve($0) }
            } catch {
                requests = []
                refusals.append(command)
            }
            let before = server.requestLog.count
            _ = try Subprocess.run(bash, ["-c", "cd '\(home.path)' && " + command.replacingOccurrences(of: "curl ", with: "'\(curl)' -s -o /dev/null ")],
                                   timeout: 20, environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
            let sent = Array(server.requestLog.dropFirst(before))
            guard sent.count == requests.count else {
                wrong.append("\(command): curl sent \(sent.count) requests, reqtop reads \(requests.count)")
                continue
            }
            for (got, request) in zip(sent, requests) {
                let predicted = ["\(request.method) \(request.url.requestTarget) HTTP/1.1"]
                    + ClientHeaders.onTheWire(request, configuration: configuration).map(\.header.description)
                if comparable(got.rawHead) != comparable(predicted) || !sameBody(got, request) {
                    wrong.append("\(command)\n  curl:   \(comparable(got.rawHead)) \(String(decoding: got.body ?? Data(), as: UTF8.self).debugDescription)"
                                 + "\n  reqtop: \(comparable(predicted)) \(String(decoding: request.body.data ?? Data(), as: UTF8.self).debugDescription)")
                }
            }
        }
        XCTAssertEqual(wrong, [], wrong.joined(separator: "\n"))
        // Refused by both: the space in the -G query (curl: "URL using bad/illegal format").
        XCTAssertEqual(refusals, ["curl -G -d a=1 -d 'b=two words' '\(base)/get?x=0'"])
    }

    /// `-H 'Name:'` leaves out a field the client adds by itself, as curl does: the heads the server
    /// receives from curl and from reqtop are the same line for line (User-Agent included, as neither sends one).
    func testRemovingAClientHeaderSendsTheHeadCurlSends() async throws {
        let curl = try XCTUnwrap(findExecutable(named: "curl"), "curl is needed on PATH")
        let command = "curl \(server.baseURL.absoluteString)/get -H 'Accept:' -H 'User-Agent:' -H 'X-Keep: 1' -H 'x-keep:'"
        let list = try RequestListLoader.load(text: command, path: "/tmp/remove.curl", format: .curl)
        XCTAssertEqual(list.warnings.map(\.message), [], "nothing ignored")
        let request = try RequestResolver(list: list).resolve(0)
        let before = server.requestLog.count
        _ = try Subprocess.run(curl, ["-s", "-o", "/dev/null", "\(server.baseURL.absoluteString)/get", "-H", "Accept:", "-H", "User-Agent:",
                                      "-H", "X-Keep: 1", "-H", "x-keep:"], timeout: 20)
        var configuration = SessionConfiguration()
        configuration.compression = false // as `reqtop run` without --compressed
        _ = await SessionManager(configuration: configuration).data(for: request)
        let heads = server.requestLog.dropFirst(before).map(\.rawHead)
        XCTAssertEqual(heads.count, 2)
        XCTAssertEqual(heads.first, heads.last)
        XCTAssertEqual(heads.first?.contains { $0.hasPrefix("Accept") || $0.hasPrefix("User-Agent") }, false, "\(heads)")
        XCTAssertEqual(ClientHeaders.onTheWire(request, configuration: configuration).map(\.header.description),
                       heads.first.map { Array($0.dropFirst()) }, "--dry-run shows that head")
    }

    func testRealCurlSendsWhatReqtopReadsFromEveryWildCommand() throws {
        let (curl, bash, home) = try curlBashAndHome()
        try Data("--connect-to ::127.0.0.1:\(server.port)\n--silent\n--max-time 5\n".utf8)
            .write(to: home.appendingPathComponent(".curlrc"))
        let corpus = ((#filePath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("../ReqtopRequestListsTests/Fixtures/Wild/curl")
        var same = 0, refused = 0, warned = 0, curlSentNothing = 0, wrong: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus).sorted() {
            let text = try String(contentsOfFile: (corpus as NSString).appendingPathComponent(name), encoding: .utf8)
            for command in commands(text.replacingOccurrences(of: "https://", with: "http://")) {
                let path = home.appendingPathComponent("command.curl").path
                let requests: [HTTPRequest]
                do {
                    let list = try RequestListLoader.load(text: command, path: path, format: .curl)
                    if list.warnings.contains(where: { $0.message.hasPrefix("ignored curl options") }) {
                        warned += 1 // told the user which options are not applied (a proxy, --http1.0, --digest …)
                        continue
                    }
                    let resolver = RequestResolver(list: list)
                    requests = try list.specs.indices.map { try resolver.resolve($0) }
                } catch {
                    refused += 1 // told the user why (file:line:col); not sent, so nothing to compare
                    continue
                }
                let before = server.requestLog.count
                _ = try Subprocess.run(bash, ["-c", "cd '\(home.path)' && " + command.replacingOccurrences(of: "curl ", with: "'\(curl)' -o /dev/null ")],
                                       timeout: 20, environment: ["HOME": home.path, "CURL_HOME": home.path, "PATH": "/usr/bin:/bin"])
                let sent = Array(server.requestLog.dropFirst(before))
                var configuration = SessionConfiguration()
                configuration.compression = false
                let predicted = requests.map { request in
                    ["\(request.method) \(request.url.requestTarget) HTTP/1.1"]
                        + ClientHeaders.onTheWire(request, configuration: configuration).map(\.header.description)
                }
                if sent.isEmpty {
                    curlSentNothing += 1 // curl refused it (a glob in the URL) or the test server did (a malformed header)
                    continue
                }
                guard sent.count == requests.count else {
                    wrong.append("\(name): curl sent \(sent.count) requests, reqtop reads \(requests.count): \(command.prefix(120))")
                    continue
                }
                var matches = true
                for (got, request) in zip(sent, zip(predicted, requests)) {
                    if comparable(got.rawHead) != comparable(request.0) || !sameBody(got, request.1) {
                        matches = false
                        wrong.append("\(name): \(command.prefix(100))\n  curl:   \(comparable(got.rawHead))\n  reqtop: \(comparable(request.0))")
                    }
                }
                if matches { same += 1 }
            }
        }
        print("curl differential: \(same) the same, \(refused) refused with a message, \(warned) with options not applied (listed), "
              + "\(curlSentNothing) curl itself sent nothing, \(wrong.count) different")
        XCTAssertGreaterThan(same, 100)
        XCTAssertEqual(wrong, [], wrong.joined(separator: "\n"))
    }
}
