import CTLS
import FoundationEssentials
import ReqtopNetworking
import ReqtopSync

/// reqtop's local certificate authority for `--intercept`: made once (EC P-256, ten years), kept
/// as two PEM files readable only by the user, and used to mint a certificate for each host a
/// client CONNECTs to. A program trusts it through the certificate file (`curl --cacert`,
/// `SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE`, `NODE_EXTRA_CA_CERTS`).
public final class CertificateAuthority: Sendable {
    /// The CA certificate (PEM): what a client must trust.
    public let certificatePath: String
    /// The CA private key (PEM, 0600).
    public let keyPath: String
    /// SHA-256 of the certificate, `AB:CD:…`.
    public let fingerprint: String
    /// The OpenSSL side, reached under the lock only (it mints certificates).
    private let ca: Protected<CAHandle>

    private struct CAHandle: @unchecked Sendable { let pointer: OpaquePointer } // only used under `ca`'s lock

    /// `$XDG_DATA_HOME/reqtop`, else `~/.local/share/reqtop`.
    public static var defaultDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("reqtop")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/reqtop")
    }

    /// Loads the CA kept in `directory`, creating it (and the directory, 0700) the first time.
    public static func loadOrCreate(in directory: URL) throws(ProxyError) -> (authority: CertificateAuthority, created: Bool) {
        let certificate = directory.appendingPathComponent("reqtop-ca.pem").path
        let key = directory.appendingPathComponent("reqtop-ca-key.pem").path
        var created = false
        // The folder and the key are private whoever made them: tightened when they are ours, refused otherwise.
        do throws(PrivateFolder.Refused) {
            try PrivateFolder.ensure(directory.path, holds: "the interception CA's private key")
            try PrivateFolder.ensureFile(key, holds: "the interception CA's private key")
        } catch {
            throw ProxyError(error.description)
        }
        if !FileManager.default.fileExists(atPath: certificate) || !FileManager.default.fileExists(atPath: key) {
            try? FileManager.default.removeItem(atPath: certificate) // half a CA (one file) is made again
            try? FileManager.default.removeItem(atPath: key)
            var error = [CChar](repeating: 0, count: 512)
            guard ctls_ca_create(key, certificate, "reqtop local CA (\(ProcessInfo.processInfo.hostName))", &error, error.count) == 0 else {
                throw ProxyError("cannot create the CA in \(directory.path): \(String(cBuffer: error))")
            }
            created = true
        }
        return (try CertificateAuthority(certificatePath: certificate, keyPath: key), created)
    }

    /// Loads a CA from its two PEM files.
    public init(certificatePath: String, keyPath: String) throws(ProxyError) {
        var error = [CChar](repeating: 0, count: 512)
        guard let pointer = ctls_ca_load(keyPath, certificatePath, &error, error.count) else {
            throw ProxyError("cannot load the CA \(certificatePath): \(String(cBuffer: error))")
        }
        var print = [CChar](repeating: 0, count: 128)
        ctls_ca_fingerprint(pointer, &print, print.count)
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        fingerprint = String(cBuffer: print)
        ca = Protected(CAHandle(pointer: pointer))
    }

    deinit { ca.withLock { ctls_ca_free($0.pointer) } }

    /// A TLS server context presenting a new certificate for `host`, signed by this CA.
    func mintContext(for host: String) throws(ProxyError) -> OpaquePointer {
        var error = [CChar](repeating: 0, count: 512)
        let context = ca.withLock { ctls_context_for_host($0.pointer, host, &error, error.count) }
        guard let context else { throw ProxyError("cannot make a certificate for \(host): \(String(cBuffer: error))") }
        return context
    }

    /// How to make a program trust this CA, for the user.
    public var trustInstructions: String {
        """
        reqtop proxy: --intercept decrypts HTTPS with reqtop's local CA
          certificate  \(certificatePath)
          sha256       \(fingerprint)
          trust it in the program you watch, e.g.:
            curl --cacert \(certificatePath) …
            SSL_CERT_FILE=\(certificatePath) REQUESTS_CA_BUNDLE=\(certificatePath) python3 …
            NODE_EXTRA_CA_CERTS=\(certificatePath) node …
          the key (\(keyPath)) never leaves this machine; delete both files to make a new CA.
        """
    }
}
