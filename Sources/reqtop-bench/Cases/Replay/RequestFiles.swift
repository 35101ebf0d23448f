import Foundation

/// The same N requests as a curl config file (`curl -K`) and as a `.http` request list.
struct RequestFiles {
    let curlConfig: String
    let httpFile: String
    let directory: String

    init(url: String, count: Int) throws {
        directory = NSTemporaryDirectory() + "reqtop-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        curlConfig = directory + "/requests-\(count).curl"
        httpFile = directory + "/requests-\(count).http"
        // `output` per URL: a plain -o applies to the first URL only.
        let config = String(repeating: "url = \"\(url)\"\noutput = \"/dev/null\"\n", count: count)
        let list = (0..<count).map { _ in "GET \(url)\n" }.joined(separator: "\n###\n\n")
        try config.write(toFile: curlConfig, atomically: true, encoding: .utf8)
        try list.write(toFile: httpFile, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
