import Dispatch
import Foundation
import ReqtopNetworking
import ReqtopSync

/// `reqtop-bench download URL DEST`: one download task in a process of its own, so its peak RSS is its own.
/// Prints `bytes seconds peakRSSBytes` and exits 0 on success.
enum DownloadChild {
    static func main(url: String, destination: String) -> Int32 {
        guard let url = HTTPURL(string: url) else {
            log("download: \(url) is not a URL")
            return 2
        }
        let manager = SessionManager()
        let done = DispatchSemaphore(value: 0)
        let outcome = Protected<(bytes: Int64, error: String?)>((0, nil))
        let start = Clock.now()
        let task = manager.downloadTask(with: HTTPRequest(url: url), destination: URL(fileURLWithPath: destination)) { response in
            outcome.withLock { $0 = (response.bytes, response.error.map { "\($0)" }) }
            done.signal()
        }
        do { try task.resume() } catch {
            log("download: \(error)")
            return 1
        }
        done.wait()
        let seconds = Clock.now() - start
        let result = outcome.withLock { $0 }
        if let error = result.error {
            log("download of \(url) failed: \(error)")
            return 1
        }
        print("\(result.bytes) \(seconds) \(ProcessMemory.peakResidentBytes)")
        return 0
    }
}
