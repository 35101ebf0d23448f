import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback server that answers every request with the same bytes, exactly as given, then closes
/// the connection: for responses no real server would send (regression reproducers).
public final class CannedResponseServer: @unchecked Sendable { // the listener is only touched by its thread and stop()
    public let port: Int
    private let listener: Int32
    private let response: [UInt8]
    private let done = DispatchSemaphore(value: 0)

    public init(response: [UInt8]) throws {
        self.response = response
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return } // stop() shut the listener down
            var head: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let n = recv(client, &buffer, buffer.count, 0)
                if n <= 0 { break }
                head += buffer[0..<n]
            }
            var offset = 0
            while offset < response.count {
                let n = response.withUnsafeBytes { send(client, $0.baseAddress! + offset, response.count - offset, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                offset += n
            }
            close(client)
        }
    }

    public var url: String { "http://127.0.0.1:\(port)/" }

    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
    }
}
