import Foundation

/// Polls `condition` until it holds or `timeout` seconds pass; returns whether it held. For what
/// another thread or process does that no event announces (a file removed, a port accepting, a
/// counter reaching a value): the deadline bounds the wait, the poll interval only paces it.
@discardableResult
public func eventually(timeout: Double = 10, every interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return try condition()
}
