import ReqtopSync

/// Whether what leaves the process hides secrets, and the values known to be secret so far (a
/// private environment file's, credentials seen in a recorded session), which are hidden wherever
/// else they appear. The program makes one (`--include-secrets`: `SecretPolicy(redacts: false)`)
/// and hands it to every writer of HAR, JSON Lines, exports and copies; none of them decides alone.
public final class SecretPolicy: Sendable {
    /// False with `--include-secrets`: everything goes out as it is.
    public let redacts: Bool
    /// What `redaction` hands out, made again only when the values change (it is asked for on every
    /// JSON Lines line and every HAR entry).
    private let known = Protected(Redaction(values: [String]()))

    public init(redacts: Bool = true) {
        self.redacts = redacts
    }

    /// Registers values that must never leave in clear. Values shorter than 4 characters are too
    /// common to hide anywhere they appear and are ignored.
    public func register<S: Sequence>(_ values: S) where S.Element == String {
        register(Array(values))
    }

    /// `register(_:)` for an array: the generic form, called with one, looked up its collection
    /// types by name at run time (a tenth of a millisecond of every `reqtop run`'s start-up).
    public func register(_ values: [String]) {
        guard redacts else { return }
        let candidates = values.filter { $0.count >= 4 }
        guard !candidates.isEmpty else { return }
        known.withLock { redaction in
            let added = Set(candidates).subtracting(redaction.values)
            if !added.isEmpty { redaction = Redaction(values: redaction.values + added) }
        }
    }

    /// The redaction to apply now, or nil when secrets may go out (`--include-secrets`).
    public var redaction: Redaction? { redacts ? known.snapshot : nil }
}
