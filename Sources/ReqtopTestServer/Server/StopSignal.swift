#if canImport(Glibc)
import Glibc
#endif

/// A pipe that becomes readable, and stays readable, once the server is stopping.
///
/// Every thread of the server polls its read end next to its socket, so one byte written
/// by ``trigger()`` wakes all of them at once.
struct StopSignal: Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws(TestServerError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw .socketFailed(operation: "pipe", errno: errno, message: TestServerError.message(for: errno))
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Makes the read end readable for good.
    func trigger() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    func close() {
        _ = Glibc.close(readFD)
        _ = Glibc.close(writeFD)
    }
}
