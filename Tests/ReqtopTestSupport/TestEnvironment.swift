import Foundation

/// Where the third-party servers that `scripts/test-servers.sh` starts can be reached.
///
/// The test command exports these; a test that needs one calls `try XCTSkipUnless`-style
/// helpers in its own module, or fails in CI (`CI=true`) where the servers must exist.
public enum TestEnvironment {
    /// nginx serving static files, e.g. `http://127.0.0.1:PORT` (`REQTOP_NGINX_URL`).
    public static var nginxURL: URL? { url("REQTOP_NGINX_URL") }
    /// nginx over HTTPS with a self-signed certificate (`REQTOP_NGINX_TLS_URL`).
    public static var nginxTLSURL: URL? { url("REQTOP_NGINX_TLS_URL") }
    /// nginx speaking cleartext HTTP/2 only (prior knowledge).
    public static var nginxH2CURL: URL? { url("REQTOP_NGINX_H2C_URL") }
    /// The CA file that signed nginx's certificate (`REQTOP_NGINX_CA_FILE`).
    public static var nginxCAFile: String? { ProcessInfo.processInfo.environment["REQTOP_NGINX_CA_FILE"] }
    /// httpbin under gunicorn (`REQTOP_HTTPBIN_URL`).
    public static var httpbinURL: URL? { url("REQTOP_HTTPBIN_URL") }
    /// The path of an executable `swift build` made in this package (`.build/debug/NAME`).
    public static func builtProduct(_ name: String) -> String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/\(name)").path
    }

    /// True when running in CI, where every server must be present.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    private static func url(_ name: String) -> URL? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return URL(string: value)
    }
}
