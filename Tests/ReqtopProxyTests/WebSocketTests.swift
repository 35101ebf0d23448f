import Foundation
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopProxy
import ReqtopTestSupport
import XCTest

/// WebSocket through the proxy, with real clients and servers from PyPI's `websockets`: a client
/// that tunnels (CONNECT, as most do) and one that sends its upgrade in absolute-form; every frame
/// each way recorded, compressed ones inflated; a server that breaks RFC 6455 still relayed byte for byte.
final class WebSocketTests: ProxyTestCase {
    /// An echo server; a `websockets` client through the proxy (CONNECT) sends text, binary and a
    /// ping; then a raw client sends its upgrade in absolute-form, one text frame and a close.
    private static let echoScript = #"""
    import asyncio, base64, os, socket, struct, sys
    from websockets.asyncio.server import serve
    from websockets.asyncio.client import connect

    async def echo(ws):
        async for message in ws:
            await ws.send(message)

    def masked(opcode, payload):
        mask = os.urandom(4)
        return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def absolute_form(proxy, port):
        s = socket.create_connection(("127.0.0.1", proxy))
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET http://127.0.0.1:{port}/raw?x=1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(4096)
        status, rest = data.split(b"\r\n")[0].decode(), data.split(b"\r\n\r\n", 1)[1]
        s.sendall(masked(1, b"raw hello"))
        while len(rest) < 11:
            rest += s.recv(4096)
        s.sendall(masked(8, struct.pack("!H", 1000) + b"done"))
        s.recv(4096)
        s.close()
        return status, rest[2:11].decode()

    async def main():
        proxy = int(sys.argv[1])
        async with serve(echo, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}/chat", proxy=f"http://127.0.0.1:{proxy}") as ws:
                await ws.send('{"hello": "world"}')
                text = await ws.recv()
                await ws.send(bytes(i & 0xFF for i in range(300)))
                binary = await ws.recv()
                await (await ws.ping(b"p"))
            status, echoed = await asyncio.get_running_loop().run_in_executor(None, absolute_form, proxy, port)
            print(text, len(binary), status, echoed)

    asyncio.run(main())
    """#

    private func messages(of task: TaskID) -> [StreamMessage] {
        recorder.events(of: task).compactMap { if case .message(let m) = $0.kind { m } else { nil } }
    }

    private func webSocketTasks() -> [TaskID] {
        proxiedTasks().filter { task in
            if case .created(let description)? = recorder.events(of: task).first?.kind { description.name == "websocket" } else { false }
        }
    }

    func testClientsThatTunnelOrNotWorkAndEveryFrameIsRecorded() throws {
        let result = try Subprocess.run(try python(), ["-c", Self.echoScript, String(proxy.port)], timeout: 60)
        XCTAssertEqual(result.stdoutText, #"{"hello": "world"} 300 HTTP/1.1 101 Switching Protocols raw hello"# + "\n", result.stderrText)
        _ = try waitForTasks(3) // the tunnel, the WebSocket in it, the absolute-form one
        let sockets = webSocketTasks()
        XCTAssertEqual(sockets.count, 2)

        guard case .created(let tunnelled)? = recorder.events(of: sockets[0]).first?.kind,
              case .response(let upgraded)? = recorder.events(of: sockets[0]).first(where: { $0.name == .response })?.kind else {
            return XCTFail("the tunnelled WebSocket's task")
        }
        XCTAssertTrue(tunnelled.url.absoluteString.hasPrefix("ws://127.0.0.1:") && tunnelled.url.absoluteString.hasSuffix("/chat"),
                      tunnelled.url.absoluteString)
        XCTAssertEqual(upgraded.status, 101)
        let frames = messages(of: sockets[0])
        XCTAssertEqual(frames.map { "\($0.direction?.rawValue ?? "?") \($0.opcode ?? 0)" },
                       ["send 1", "receive 1", "send 2", "receive 2", "send 9", "receive 10", "send 8", "receive 8"])
        XCTAssertEqual(frames[0].data, #"{"hello": "world"}"#, "inflated: the client offered permessage-deflate and the server took it")
        XCTAssertEqual(frames[2].size, 300)
        XCTAssertEqual(Data(base64Encoded: frames[2].data), Data((0..<300).map { UInt8($0 & 0xFF) }), "binary in base64, as Chrome writes it")
        XCTAssertEqual(frames[6].closeCode, 1000)
        XCTAssertEqual(frames.map(\.index), Array(1...8))

        let absolute = messages(of: sockets[1])
        XCTAssertEqual(absolute.map(\.data), ["raw hello", "raw hello", "done", "done"])
        XCTAssertEqual(absolute.map(\.direction), [.send, .receive, .send, .receive])
        guard case .requestSent(let head)? = recorder.events(of: sockets[1]).first(where: { $0.name == .request })?.kind,
              case .completed(let end)? = recorder.terminalEvent(of: sockets[1])?.kind else { return XCTFail("the absolute-form WebSocket") }
        XCTAssertEqual(head.target, "/raw?x=1", "sent on in origin-form")
        XCTAssertEqual(end.response.status, 101)
    }

    /// `wss://` inside an `--intercept`ed tunnel: the client speaks TLS to the proxy (its CA), the proxy
    /// speaks TLS to the host (verified with `--cacert`); every frame is recorded in clear. A host whose
    /// certificate the proxy does not trust gets no request: the client gets `502` saying why.
    func testSecureWebSocketsInsideAnInterceptedTunnelAreRecorded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-wss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("host-key.pem").path, certificate = directory.appendingPathComponent("host.pem").path
        let openssl = try XCTUnwrap(findExecutable(named: "openssl"), "openssl is needed (make test installs it)")
        let made = try Subprocess.run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
                                                "-addext", "subjectAltName=IP:127.0.0.1"], timeout: 30)
        XCTAssertEqual(made.status, 0, made.stderrText)
        let authority = try CertificateAuthority.loadOrCreate(in: directory).authority
        try startProxy({ $0.interception = authority }, session: { $0.caFile = certificate })
        let script = #"""
        import asyncio, ssl, sys
        from websockets.asyncio.server import serve
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus, InvalidMessage, InvalidProxyStatus

        async def echo(ws):
            async for message in ws:
                await ws.send(message)

        async def main():
            proxy, certificate, key, ca = sys.argv[1:5]
            served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            served.load_cert_chain(certificate, key)
            trusting = ssl.create_default_context(cafile=ca)
            async with serve(echo, "127.0.0.1", 0, ssl=served) as server:
                port = server.sockets[0].getsockname()[1]
                async with connect(f"wss://127.0.0.1:{port}/secure?room=1", proxy=f"http://127.0.0.1:{proxy}", ssl=trusting) as ws:
                    await ws.send('{"secret": "in clear for the inspector"}')
                    print(await ws.recv())
                    await ws.send(b"\x00\x01\x02")
                    print(len(await ws.recv()))
            # ws:// tunnels too: with --intercept, a tunnel that does not start TLS is read as plain HTTP.
            async with serve(echo, "127.0.0.1", 0) as server:
                port = server.sockets[0].getsockname()[1]
                async with connect(f"ws://127.0.0.1:{port}/plain", proxy=f"http://127.0.0.1:{proxy}") as ws:
                    await ws.send("plain")
                    print(await ws.recv())
            # A host with a certificate the proxy does not trust.
            untrusted = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            untrusted.load_cert_chain(ca, sys.argv[5])
            async with serve(echo, "127.0.0.1", 0, ssl=untrusted) as server:
                port = server.sockets[0].getsockname()[1]
                try:
                    async with connect(f"wss://127.0.0.1:{port}/", proxy=f"http://127.0.0.1:{proxy}", ssl=trusting):
                        print("connected")
                except InvalidStatus as refused:
                    print(refused.response.status_code)

        asyncio.run(main())
        """#
        let result = try Subprocess.run(try python(), ["-c", script, String(proxy.port), certificate, key, authority.certificatePath,
                                                       authority.keyPath], timeout: 60)
        XCTAssertEqual(result.stdoutText, "{\"secret\": \"in clear for the inspector\"}\n3\nplain\n502\n", result.stderrText)
        _ = try waitForTasks(3)
        let sockets = webSocketTasks()
        XCTAssertEqual(sockets.count, 3)
        guard case .created(let plain)? = recorder.events(of: sockets[1]).first?.kind else { return XCTFail("the ws task") }
        XCTAssertTrue(plain.url.absoluteString.hasPrefix("ws://127.0.0.1:") && plain.url.absoluteString.hasSuffix("/plain"), plain.url.absoluteString)
        XCTAssertEqual(messages(of: sockets[1]).first?.data, "plain")
        guard case .created(let secure)? = recorder.events(of: sockets[0]).first?.kind,
              case .completed(let end)? = recorder.terminalEvent(of: sockets[0])?.kind else { return XCTFail("the wss task completed") }
        XCTAssertTrue(secure.url.absoluteString.hasPrefix("wss://127.0.0.1:") && secure.url.absoluteString.hasSuffix("/secure?room=1"),
                      secure.url.absoluteString)
        XCTAssertEqual(end.response.status, 101)
        let frames = messages(of: sockets[0])
        XCTAssertEqual(frames.prefix(4).map(\.direction), [.send, .receive, .send, .receive])
        XCTAssertEqual(frames.first?.data, #"{"secret": "in clear for the inspector"}"#, "decrypted, and inflated")
        XCTAssertEqual(frames[2].size, 3)
        guard case .failed(let failure)? = recorder.terminalEvent(of: sockets[2])?.kind else { return XCTFail("the untrusted host's task fails") }
        XCTAssertEqual(failure.error.code, .tlsFailure)
        XCTAssertTrue(failure.error.message.contains("certificate verify failed: self-signed certificate"), failure.error.message)
    }

    /// A server answers the upgrade, then sends a frame with a reserved opcode: the client gets every
    /// byte as the server sent it, and the task says why nothing more was recorded.
    func testFramesThatBreakRFC6455AreRelayedUntouchedAndSaidToBeBroken() throws {
        let script = #"""
        import socket, sys, threading
        listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(1)
        sent = b"\x81\x02hi" + b"\x83\x03bad" + b"\x81\x05after"
        def serve():
            conn, _ = listener.accept()
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(4096)
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n" + sent)
            conn.close()
        threading.Thread(target=serve).start()
        port = listener.getsockname()[1]
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        s.sendall(f"GET http://127.0.0.1:{port}/ HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".encode())
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk: break
            data += chunk
        print(data.split(b"\r\n\r\n", 1)[1] == sent)
        """#
        let result = try Subprocess.run(try python(), ["-c", script, String(proxy.port)], timeout: 60)
        XCTAssertEqual(result.stdoutText, "True\n", "the bytes went through untouched: \(result.stderrText)")
        let task = try XCTUnwrap(try waitForTasks(1).first)
        XCTAssertEqual(messages(of: task).map(\.data), ["hi"], "recorded up to the bad frame")
        let logs = recorder.events(of: task).compactMap { if case .scriptLog(let log) = $0.kind { log.text } else { nil } }
        XCTAssertEqual(logs.count, 1)
        XCTAssertTrue(logs.first?.contains("reserved opcode 3") ?? false, "\(logs)")
    }
}
